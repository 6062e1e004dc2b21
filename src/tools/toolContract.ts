// The contract every tool fulfils, whether it reads files, runs a command or talks to the editor.
import type { JsonObject } from "../relay/types";
import type { ArgumentRole } from "./approvalDisplay";
import type { ProposedChange } from "./editPreview";

/**
 * How much harm a call can do; drives what the approval policy may skip asking about. `external` is a tool
 * of another extension or an MCP server (run through VS Code): Relay Chat cannot see what it does.
 */
export type ToolRisk = "read" | "write" | "execute" | "external";

/** A richer result than plain text, for tools whose failure is an answer the model should see, not a crash. */
export interface ToolRunResult {
  output: string;
  /** True when the output describes a failure; the text is then sent prefixed with "Error: ". */
  isError?: boolean;
  /** True when the tool ran but the user turned down what it proposed (propose_edit's review); shown as "denied". */
  declined?: boolean;
}

/** Who asked for a call: the conversation and turn whose model proposed it (absent outside a conversation, as in VS Code's own chat). */
export interface ToolCaller {
  readonly conversationId: string;
  readonly turnId: string;
}

export interface Tool {
  /** The function name the model calls; must match /^[A-Za-z0-9_-]{1,64}$/. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object; arguments are validated against it before anyone sees them. */
  readonly parameters: JsonObject;
  readonly risk: ToolRisk;
  /** Sent as `strict` in the request when set; only meaningful if the schema follows the strict-mode rules. */
  readonly strict?: boolean;
  /** Roles of top-level arguments by property name; see ArgumentRole. */
  readonly argumentRoles?: Readonly<Record<string, ArgumentRole>>;
  /** For an `external` tool only: the user chose to let its approval card offer "allow for this session". */
  readonly sessionAllowanceOptIn?: boolean;
  /** It changes nothing but the panel (update_tasks): it runs without an approval card. */
  readonly panelOnly?: boolean;
  /** Called only with arguments that passed schema validation and only after approval. */
  run(args: JsonObject, signal: AbortSignal, caller?: ToolCaller): Promise<string | ToolRunResult>;
  /**
   * For a tool that changes a file: the change the call would make, so its approval card shows a diff. Called
   * with validated arguments before approval; changes nothing. Null when there is nothing to show.
   */
  previewChange?(args: JsonObject): Promise<ProposedChange | null>;
}

/** What a tool author writes: the same contract, with the argument type the schema guarantees. */
export interface TypedToolSpecification<TArgs> extends Omit<Tool, "run" | "previewChange"> {
  run(args: TArgs, signal: AbortSignal, caller?: ToolCaller): Promise<string | ToolRunResult>;
  previewChange?(args: TArgs): Promise<ProposedChange | null>;
}

/**
 * The schema check happens before `run`, so the cast from JSON to TArgs is sound as long as the schema
 * and TArgs agree; keeping the cast here means it exists in exactly one place.
 */
export function defineTool<TArgs>(specification: TypedToolSpecification<TArgs>): Tool {
  const { previewChange } = specification;
  return {
    ...specification,
    run: (args, signal, caller) => specification.run(args as unknown as TArgs, signal, caller),
    previewChange: previewChange === undefined ? undefined : (args) => previewChange(args as unknown as TArgs),
  };
}
