import * as l10n from "@vscode/l10n";
import type { Conversation, ToolCallRecord } from "../chat/conversation";
import { activePath, findTurn } from "../chat/conversation";
import type { ConversationSummary } from "../chat/conversationSummary";
import { imagesTitle, typedTextOf } from "../chat/conversationSummary";
import type { SendEstimate } from "../chat/spendGuard";
import { splitMessage } from "./context/messageAttachments";
import type { AttachmentView, ContextMeterView, ConversationListEntry, ImageLimitsView, PanelFields, ReceiptView, RelayModelsView, RulesView, SetupView, SlashCommandView, TotalsView, TurnView } from "./protocol";
import { receiptOf, turnViewOf } from "./turns/turnView";
import { tasksOf } from "../chat/planState";
import type { ChatMode } from "../tools/planMode";
import { compactionOfferFor } from "./turns/compactionOffer";
import type { CompactionSettings } from "../chat/compaction";
import { conversationTotals } from "../chat/conversationTotals";
import type { LedgerTotals } from "../chat/requestLedger";

// What the panel shows, computed from what the host knows: the conversation, the settings, the model
// list and the open questions. Pure (no vscode, no I/O) and tested on Node. Each part is computed on its
// own, so a change posts only what it touched.

/** The controller's state, as the presenter reads it. */
export interface PanelInputs {
  setup: SetupView;
  notice: string | null;
  model: string;
  models: string[];
  modelsNote: string | null;
  relay: string | null;
  relayModels: RelayModelsView[];
  conversations: ConversationSummary[];
  conversation: Conversation | null;
  busy: boolean;
  attachments: AttachmentView[];
  selectionOffer: { label: string } | null;
  activeFileOffer: { label: string } | null;
  rules?: RulesView | null;
  context: ContextMeterView | null;
  compaction: CompactionSettings;
  /** Files whose proposed edits wait for Keep or Undo in the editor. */
  filesToReview?: number;
  /** relayChat.maxOutputTokens: the room a summary request leaves for its answer. */
  maxOutputTokens?: number | null;
  imageLimits: ImageLimitsView;
  /** relayChat.consoleUrl is set, so a quota problem can offer to open the relay's console. */
  consoleConfigured: boolean;
  balanceNote?: (relay: string | null) => string | null;
  spendEstimate: SendEstimate | null;
  /** The turn whose answer is streaming, and its text so far. */
  streamingTurnId: string | null;
  liveText: string | null;
  liveReasoning?: string | null;
  /** The Plan / Act switch for the next message (the conversation's, or a new chat's). */
  mode?: ChatMode;
  /** What `/` lists in the message box. */
  slashCommands?: SlashCommandView[];
  /** The check-up's finding that a model needs Chat Completions, waiting for confirmation. */
  chatCompletionsFinding?: { relay: string; model: string } | null;
}

export class PanelPresenter {
  private conversationSource: ConversationSummary[] | null = null;
  private conversationEntries: ConversationListEntry[] = [];
  /** Each listed conversation's entry, by id. */
  private conversationEntryOf = new Map<string, ShownEntry>();
  private modelSource: string[] | null = null;
  private modelList: string[] = [];

  fields(inputs: PanelInputs): PanelFields {
    const { spendEstimate, conversation } = inputs;
    return {
      title: titleOf(conversation),
      setup: inputs.setup,
      model: inputs.model || null,
      models: this.models(inputs.models),
      modelsNote: inputs.modelsNote,
      relay: inputs.relay,
      relayModels: inputs.relayModels.map(({ relay, models, unlisted, chatModels }) => ({ relay, models, unlisted, ...(chatModels ? { chatModels } : {}) })),
      conversations: this.conversationList(inputs.conversations),
      // A new chat is saved with its first turn; until then it has no entry of its own.
      conversationId: conversation !== null && conversation.turns.length > 0 ? conversation.id : null,
      busy: inputs.busy,
      attachments: inputs.attachments,
      selectionOffer: inputs.selectionOffer,
      activeFileOffer: inputs.activeFileOffer,
      context: inputs.context,
      rules: inputs.rules ?? null,
      compactionOffer: compactionOfferFor(conversation, inputs.context, inputs.compaction, inputs.busy, inputs.maxOutputTokens ?? null),
      chatCompletionsOffer: inputs.chatCompletionsFinding ?? null,
      filesToReview: inputs.filesToReview ?? 0,
      imageLimits: inputs.imageLimits,
      slashCommands: inputs.slashCommands ?? [],
      spendWarning:
        spendEstimate === null
          ? null
          : {
              estimatedInputTokens: spendEstimate.inputTokens,
              thresholdTokens: spendEstimate.thresholdTokens,
              text: spendEstimate.inputCost && spendEstimate.inputCost.amount > spendEstimate.inputCost.threshold
                ? l10n.t(
                    "This request resends the whole conversation: about {0} input tokens, about {1} {2} of input at the model's price (an estimate), above your warning of {3} {2}.",
                    spendEstimate.inputTokens,
                    spendEstimate.inputCost.amount.toFixed(4),
                    spendEstimate.inputCost.currency,
                    spendEstimate.inputCost.threshold,
                  )
                : l10n.t(
                    "This request resends the whole conversation: about {0} input tokens (an estimate), above your warning threshold of {1}. The relay bills input tokens.",
                    spendEstimate.inputTokens,
                    spendEstimate.thresholdTokens,
                  ),
            },
      totals: totalsViewOf(conversationTotals(conversation, inputs.busy)),
      balance: inputs.balanceNote?.(null) ?? null,
      notice: inputs.notice,
      mode: inputs.mode ?? "act",
      tasks: tasksOf(conversation),
    };
  }

  /** The turns of the branch on screen, in order. */
  turnIds(conversation: Conversation | null): string[] {
    return conversation === null ? [] : activePath(conversation).map((turn) => turn.id);
  }

  /** One turn; `answeredCalls` are tool calls of the running round the turn does not list yet. */
  turn(inputs: Pick<PanelInputs, "conversation" | "streamingTurnId" | "liveText" | "liveReasoning" | "consoleConfigured" | "balanceNote">, turnId: string, answeredCalls: readonly ToolCallRecord[] = []): TurnView | null {
    const turn = inputs.conversation === null ? undefined : findTurn(inputs.conversation, turnId);
    if (inputs.conversation === null || turn === undefined) return null;
    const listed = new Set(turn.toolCalls.map((call) => call.callId));
    const withAnswered = answeredCalls.some((call) => !listed.has(call.callId)) ? { ...turn, toolCalls: [...turn.toolCalls, ...answeredCalls.filter((call) => !listed.has(call.callId))] } : turn;
    return turnViewOf(inputs.conversation, withAnswered, { streamingTurnId: inputs.streamingTurnId, liveText: inputs.liveText, liveReasoning: inputs.liveReasoning, consoleConfigured: inputs.consoleConfigured, balanceNote: inputs.balanceNote });
  }

  receipt(conversation: Conversation | null, turnId: string, index: number): ReceiptView | null {
    const request = conversation === null ? undefined : findTurn(conversation, turnId)?.requests[index];
    return request === undefined ? null : receiptOf(request);
  }

  // The lists are rebuilt only when the controller replaced them, so an unchanged list is the same object
  // and costs nothing to compare. The history store hands out a new list after every turn (one entry
  // changed, or one added): entries whose summary is unchanged are kept, frozen, so PanelSync serializes
  // only the new ones, and a list with every entry kept is the previous object.
  private conversationList(summaries: ConversationSummary[]): ConversationListEntry[] {
    if (summaries === this.conversationSource) return this.conversationEntries;
    this.conversationSource = summaries;
    const previous = this.conversationEntries;
    const kept = new Map<string, ShownEntry>();
    let same = summaries.length === previous.length;
    const entries = summaries.map((summary, index) => {
      const known = this.conversationEntryOf.get(summary.id);
      const shown = known !== undefined && stillShows(known, summary) ? known : { title: summary.title, entry: listEntryOf(summary) };
      kept.set(summary.id, shown);
      if (same && shown.entry !== previous[index]) same = false;
      return shown.entry;
    });
    this.conversationEntryOf = kept;
    if (!same) this.conversationEntries = entries;
    return this.conversationEntries;
  }

  private models(models: string[]): string[] {
    if (models !== this.modelSource) {
      this.modelSource = models;
      this.modelList = [...models];
    }
    return this.modelList;
  }
}

/** The title line's totals as the page gets them; null when no conversation is on screen. */
export function totalsViewOf(totals: LedgerTotals | null): TotalsView | null {
  if (totals === null) return null;
  const { cost } = totals;
  return {
    requests: totals.requests,
    inputTokens: totals.inputTokens,
    cachedTokens: totals.cachedTokens,
    outputTokens: totals.outputTokens,
    requestsWithoutUsage: totals.requestsWithoutUsage,
    requestsWithUsage: totals.requestsWithUsage,
    cost: cost.amount === null || cost.currency === null ? null : { amount: cost.amount, currency: cost.currency, estimated: cost.estimated },
    requestsWithoutCost: cost.requestsWithoutCost,
  };
}

const TITLE_LENGTH = 80;

/**
 * The header's title: the name the user gave, else the first line of the first message (so a new
 * conversation is named as soon as it is sent, not when its answer is saved), or its images, else "New chat".
 */
function titleOf(conversation: Conversation | null): string {
  if (conversation !== null && conversation.title.trim() !== "") return conversation.title;
  const first = conversation?.turns.find((turn) => turn.parentId === null);
  const line = first === undefined ? "" : splitMessage(first.userText).text.replace(/\s+/g, " ").trim();
  // A message of images alone is named after them, not left "New chat".
  if (line === "" && (first?.images?.length ?? 0) > 0) return imagesTitle(first?.images?.length ?? 0);
  if (line === "") return l10n.t("New chat");
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

/** A list entry, frozen: PanelSync keeps the JSON of frozen values (see `jsonOf`). */
function listEntryOf(summary: ConversationSummary): ConversationListEntry {
  return Object.freeze({
    id: summary.id,
    // A history index written before titles left attachments out may still hold them.
    title: typedTextOf(summary.title).trim() || l10n.t("New chat"),
    updatedAt: summary.updatedAt,
    turnCount: summary.turnCount,
    model: summary.model,
  });
}

/** A list entry and the title it was made from (the entry's title leaves attachments out). */
interface ShownEntry {
  title: string;
  entry: ConversationListEntry;
}

function stillShows({ title, entry }: ShownEntry, summary: ConversationSummary): boolean {
  return title === summary.title && entry.updatedAt === summary.updatedAt && entry.turnCount === summary.turnCount && entry.model === summary.model;
}
