import type * as vscode from "vscode";
import type { CheckStep } from "../relay/checkStep";

// What the relay check-up found about function calling, per relay and model, kept across sessions so
// VS Code's chat (whose agent mode hides models without tool calling) does not offer tools to a model
// the relay cannot call them on. Only a check-up writes here: a failed chat request is never taken as
// proof, because it can fail for many other reasons.

const STATE_KEY = "relayChat.lm.modelsWithoutTools";

/** A check-up step about function calls: its name says so (e.g. "Function call (streamed)"). */
const FUNCTION_CALL_STEP = /function[ -]call|tool[ -]call/i;

export class ToolSupportFindings {
  constructor(
    private readonly state: vscode.Memento,
    private readonly onChange: () => void,
  ) {}

  knownWithoutTools(relayRoot: string, modelId: string): boolean {
    return this.entries().includes(keyOf(relayRoot, modelId));
  }

  async record(relayRoot: string, modelId: string, supportsTools: boolean): Promise<void> {
    if (supportsTools !== this.knownWithoutTools(relayRoot, modelId)) return;
    const key = keyOf(relayRoot, modelId);
    const entries = this.entries().filter((entry) => entry !== key);
    if (!supportsTools) entries.push(key);
    await this.state.update(STATE_KEY, entries);
    this.onChange();
  }

  /**
   * Reads a check-up report: when it probed a function call for the model, the outcome is recorded
   * (a call that arrived intact in either mode = supported;
   * a streaming-only problem is the check-up's own advice, not a missing feature). A report without such a step changes nothing.
   */
  async recordFromCheck(relayRoot: string, modelId: string, steps: readonly CheckStep[]): Promise<void> {
    const probes = steps.filter((step) => FUNCTION_CALL_STEP.test(step.name));
    if (probes.length === 0 || !modelId) return;
    // A probe that failed for another reason than the model (the relay, the network) skips the others: that proves nothing about tools.
    const ran = probes.filter((step) => step.status !== "skipped");
    if (ran.length < probes.length && ran.every((step) => step.status === "failed")) return;
    await this.record(relayRoot, modelId, probes.some((step) => step.status === "ok"));
  }

  private entries(): string[] {
    const stored = this.state.get<unknown>(STATE_KEY);
    return Array.isArray(stored) ? stored.filter((entry): entry is string => typeof entry === "string") : [];
  }
}

function keyOf(relayRoot: string, modelId: string): string {
  return `${relayRoot}\n${modelId}`;
}
