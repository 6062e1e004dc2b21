import type { ModelPrice } from "../relay/modelPrice";
import type { InstructionsAs } from "../relay/requestBuilder";
import type { ModelSettings } from "./modelSettings";
import type { CompactionSettings } from "./compaction";
import type { ModelProtocol } from "./modelSettings";
import type { InstructionsRecord } from "./conversation";

// The settings one turn runs with; the extension reads them from its configuration and passes them in.

export interface ChatSettings {
  model: string;
  /** The relay profile requests go to, recorded on each request (absent: one unnamed relay). */
  relay?: string;
  /** A model's price on that relay as known when a request is sent (never fetched then); null: unknown. */
  priceOf?: (model: string) => ModelPrice | null;
  /** Ask before a request whose input is estimated to cost more than this, in the model's price currency (relayChat.spendWarning). */
  spendWarningAmount?: number | null;
  stream: boolean;
  /** Output budget per request; null sends none and leaves it to the relay. */
  maxOutputTokens: number | null;
  /** Follow-up requests after tool calls allowed in one turn; stops a model that keeps calling tools. */
  toolRoundCap: number;
  /** Estimated input tokens above which the user confirms a send first; 0 turns the warning off. */
  expensiveSendThresholdTokens: number;
  /** The model's context window in tokens, from the relay or relayChat.contextWindows; null or absent: unknown. */
  contextWindowTokens?: number | null;
  /** When to offer (or, with consent, make) a summary of earlier turns; absent: the defaults. */
  compaction?: CompactionSettings;
  /** What the model is told with every request of this send (src/instructions/ assembles it); absent: nothing. */
  instructions?: RequestInstructions;
  /** The wire the model's requests go over (relayChat.modelSettings); absent: Responses. */
  protocol?: ModelProtocol;
  /** How the relay takes instructions (the check-up's finding, relayChat.relays[].instructionsAs); absent: the field. */
  instructionsAs?: InstructionsAs;
  /** The model's own settings on this relay (relayChat.modelSettings, merged); absent: none. */
  modelSettings?: ModelSettings;
}

/** The instruction text sent as the request's `instructions`, with its sources and estimate for the record. */
export interface RequestInstructions extends InstructionsRecord {
  text: string;
  /** What the spend guard adds to the messages' estimate: the instructions and the tools' definitions sent with them. */
  tokens: number;
}

export const DEFAULT_TOOL_ROUND_CAP = 10;
export const DEFAULT_EXPENSIVE_SEND_THRESHOLD_TOKENS = 50_000;

export function chatSettingsWithDefaults(settings: Partial<ChatSettings> & Pick<ChatSettings, "model">): ChatSettings {
  return {
    stream: true,
    maxOutputTokens: null,
    toolRoundCap: DEFAULT_TOOL_ROUND_CAP,
    expensiveSendThresholdTokens: DEFAULT_EXPENSIVE_SEND_THRESHOLD_TOKENS,
    ...settings,
  };
}
