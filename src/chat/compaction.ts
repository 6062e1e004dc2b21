import * as l10n from "@vscode/l10n";
import { outputTextOf } from "../relay/accumulate";
import { userMessage } from "../relay/requestBuilder";
import type { InputItem } from "../relay/types";
import type { Conversation, Turn, TurnSummary } from "./conversation";
import { pathTo } from "./conversation";

// Compaction: a long branch resent in full outgrows the model's context window. On the person's request
// (or with their standing consent, relayChat.compaction.withoutAsking) one request asks the model for a
// summary of the turns before the last few; the summary is stored on the last turn it covers and, from
// then on, sent in place of those turns on every branch through that turn. The turns stay for display and
// export. The boundary is always between turns, and only completed turns are ever sent, whose tool calls
// all have their outputs: a summary never separates a function_call from its function_call_output.

/** Turns kept verbatim after the summary when the setting is absent. */
export const DEFAULT_KEEP_TURNS = 4;
/** Percent of the context window the next request may fill before the panel offers a summary. */
export const DEFAULT_COMPACTION_THRESHOLD_PERCENT = 80;

/** The instruction the summarize request ends with (sent as a user message, the form every relay accepts). */
export const SUMMARIZE_PROMPT =
  "Summarize our conversation so far for your own later use: the goals, decisions, facts, file names, code and open questions that later answers depend on. Write it as compact notes, without preamble.";

/** What a summary request adds after the history it summarizes. */
export function summaryRequestItems(): InputItem[] {
  return [userMessage(SUMMARIZE_PROMPT)];
}

/** The turn a summary request is sent as: after `through`, as if it were the next turn there (never stored). */
export function summaryRequestTurn(through: Turn, createdAt: number): Turn {
  return { id: through.id, parentId: through.id, userText: "", createdAt, requests: [], toolCalls: [], outcome: { kind: "in_progress" }, notice: null };
}

/** How the summary is put in front of the turns it did not replace. */
export function summaryItem(text: string): InputItem {
  return userMessage(`Summary of the earlier part of this conversation (the turns before were summarized to fit the context window):\n\n${text}`);
}

export interface CompactionSettings {
  /** Percent of the context window at which the panel offers a summary (1-100). */
  thresholdPercent: number;
  /** How many of the last completed turns stay verbatim. */
  keepTurns: number;
  /** Summarize without asking when the next message would pass the threshold. */
  withoutAsking: boolean;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { thresholdPercent: DEFAULT_COMPACTION_THRESHOLD_PERCENT, keepTurns: DEFAULT_KEEP_TURNS, withoutAsking: false };

/** The summary's text once its request completed with text; null before that (or when it failed). */
export function summaryText(summary: TurnSummary | undefined): string | null {
  const request = summary?.requests[summary.requests.length - 1];
  if (!request || request.outcome.kind !== "completed") return null;
  const text = outputTextOf(request.output).trim();
  return text === "" ? null : text;
}

/** The index in `path` of the newest turn whose summary is in effect, or -1. */
export function summaryIndexIn(path: readonly Turn[]): number {
  for (let index = path.length - 1; index >= 0; index -= 1) if (summaryText(path[index]?.summary) !== null) return index;
  return -1;
}

/** What a new summary after `lastTurnId` would replace: the completed turns before the last `keepTurns`. */
export interface CompactionBoundary {
  /** The last turn the summary covers; it is stored there. */
  through: Turn;
  /** How many turns it replaces in what is sent, counting those an earlier summary replaced. */
  replacedTurns: number;
}

/**
 * Where a summary of the branch ending at `lastTurnId` would end, or null when there is nothing to
 * summarize (fewer completed turns since the last summary than are kept). Turns that did not complete
 * are never sent, so they count neither as kept nor as summarized.
 *
 * `fits` says whether the summary request ending at a turn fits the context window. The request carries
 * every turn it summarizes, so when all of them would not fit, the boundary moves back to the latest turn
 * that does: the summary covers what fits, and the offer stays for the rest (summarizing in chunks, each
 * summary carrying the one before it). When not even one turn fits, it covers one, and the relay says why.
 */
export function compactionBoundary(conversation: Conversation, lastTurnId: string | null, keepTurns: number, fits?: (through: Turn) => boolean): CompactionBoundary | null {
  const path = pathTo(conversation, lastTurnId);
  const summarized = summaryIndexIn(path);
  const since = path.slice(summarized + 1).filter((turn) => turn.outcome.kind === "completed" || (turn.outcome.kind === "incomplete" && turn.includeIncomplete === true));
  const newlyReplaced = since.length - Math.max(0, keepTurns);
  if (newlyReplaced < 1) return null;
  const count = fits ? largestFitting(newlyReplaced, (candidate) => fits(since[candidate - 1] as Turn)) : newlyReplaced;
  const earlier = summarized < 0 ? 0 : (path[summarized]?.summary?.replacedTurns ?? 0);
  return { through: since[count - 1] as Turn, replacedTurns: earlier + count };
}

/** The largest count in 1…most for which `fits` holds (it holds for every smaller count once it holds), else 1. */
function largestFitting(most: number, fits: (count: number) => boolean): number {
  if (fits(most)) return most;
  let low = 1;
  let high = most - 1;
  let found = 1;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Asked for a summary with nothing before the kept turns to summarize: news for the person, not a failure. */
export class NothingToSummarize extends Error {
  constructor(keepTurns: number) {
    super(l10n.t("There are no earlier turns to summarize: the last {0} turns are always sent as they are.", keepTurns));
    this.name = "NothingToSummarize";
  }
}
