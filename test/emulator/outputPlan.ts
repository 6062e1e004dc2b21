// What a scripted model decided to write, before budgets, faults and wire framing are applied.

export interface PlannedMessage {
  kind: "message";
  deltas: string[];
}

export interface PlannedFunctionCall {
  kind: "function_call";
  name: string;
  argumentDeltas: string[];
}

export interface PlannedReasoning {
  kind: "reasoning";
  summaryDeltas: string[];
  encryptedContent: string;
}

export type PlannedItem = PlannedMessage | PlannedFunctionCall | PlannedReasoning;

export function plannedDeltaCount(item: PlannedItem): number {
  switch (item.kind) {
    case "message":
      return item.deltas.length;
    case "function_call":
      return item.argumentDeltas.length;
    case "reasoning":
      return item.summaryDeltas.length;
  }
}

/** One output token per delta, so budgets and usage are exact and predictable. */
export function plannedOutputTokens(plan: readonly PlannedItem[]): number {
  return plan.reduce((sum, item) => sum + plannedDeltaCount(item), 0);
}
