import * as l10n from "@vscode/l10n";
import type { ChatSession } from "../../chat/chatSession";
import { NothingToSummarize } from "../../chat/compaction";
import { findTurn } from "../../chat/conversation";
import type { ReviewReport } from "../../chat/reviewNote";
import { changedFilesOnBranch, reviewNoteText } from "../../chat/reviewNote";
import type { EditorActions } from "../editor/editorActions";
import { removeKeys } from "../../relay/redact";
import { relayKeys } from "../panelServices";
import { composeMessage, splitMessage } from "../context/messageAttachments";
import type { RelayAccess } from "../panelServices";
import type { ImageLimitsView, ImageUpload } from "../protocol";
import { MEGABYTE } from "../protocol";
import type { SessionRunner } from "./sessionRunner";
import { PlanModeActions } from "./planModeActions";

// Starts the turns the person asks for (send, retry, regenerate, edit and resend, continue, summarize) on the
// conversation on screen: whether one may start now, what the message carries (attachments, images, the note
// about the model's earlier changes to files), and reading the history list again once it ended. The Plan /
// Act mode they start in is PlanModeActions'.

export interface TurnStarterOptions {
  relay: RelayAccess;
  runner: SessionRunner;
  editorActions: EditorActions;
  /** The model for the next request (empty: none picked yet). */
  model: () => string;
  imageLimits: () => ImageLimitsView;
  /** The conversation on screen is being answered in another window (read-only here). */
  runningElsewhere: () => boolean;
  /** What the person did with the model's changes to files, told to the model with the next message. */
  editReviews?: ReviewReport;
  changed: () => void;
  setNotice: (notice: string | null) => void;
  reloadConversations: () => Promise<void>;
  /** While rules files that changed are read again: resolves once they were, so the turn sends what is on disk now. */
  instructionsReady?: () => Promise<void> | undefined;
  /** Remembers (and saves, where the host can) the wire the person chose for a model on a relay. */
  useProtocol?: (relay: string, model: string, protocol: "chat") => Promise<void>;
}

export class TurnStarter {
  /**
   * The mode the next turns start in (`plan.setMode("plan")`: the composer's switch and the `/plan` command),
   * Act on this plan, and the person's edits of the task list.
   */
  readonly plan: PlanModeActions;

  constructor(private readonly options: TurnStarterOptions) {
    this.plan = new PlanModeActions({ runner: options.runner, turns: this, changed: options.changed });
  }

  async send(text: string, images: readonly ImageUpload[] = []): Promise<void> {
    const { editorActions, editReviews } = this.options;
    const trimmed = text.trim();
    const attachments = editorActions.attachments;
    if ((!trimmed && attachments.isEmpty && images.length === 0) || !this.canSend()) return;
    // The webview downscaled and checked them; a larger one here came around that check and is refused whole.
    const maxBytes = this.options.imageLimits().maxBytes;
    if (images.some((image) => Math.floor((image.data.length * 3) / 4) > maxBytes)) {
      this.options.setNotice(l10n.t("An image is larger than {0} MB even after downscaling; the message was not sent. Attach a smaller image or raise relayChat.images.maxMegabytes.", maxBytes / MEGABYTE));
      return;
    }
    // A relay key pasted into the message is taken out too (the attachments lost theirs when attached).
    const message = composeMessage(this.withoutKeys(trimmed), editorActions.takeAttachments());
    const conversation = this.options.runner.conversation;
    const conversationId = conversation?.id;
    // Only what became of this conversation's own proposals: another conversation's changes are not its model's.
    const outcomes = conversation && conversationId !== undefined && editReviews && changedFilesOnBranch(conversation) ? editReviews.outcomes(conversationId) : [];
    const reviewNote = reviewNoteText(outcomes);
    await this.runTurn(async (session) => {
      const result = await session.send(message, { images, reviewNote });
      // Told once the note is part of the history that is resent (a completed turn); after a declined or failed
      // send the next message carries it again.
      if (reviewNote !== null && result.status === "finished" && result.turn.outcome.kind === "completed" && result.turn.reviewNote === reviewNote && conversationId !== undefined) editReviews?.told(conversationId, outcomes);
    });
  }

  /** Runs a turn on the session on screen (send, continue, regenerate, edit and resend, retry). */
  async runTurn(start: (session: ChatSession) => Promise<unknown>): Promise<void> {
    const { runner } = this.options;
    if (!this.canSend() || runner.busy) return;
    // Only a read under way is waited for: otherwise the turn starts at once, as the person expects.
    const reading = this.options.instructionsReady?.();
    if (reading) {
      await reading;
      if (!this.canSend() || runner.busy) return;
    }
    const session = runner.sessionForSending();
    this.options.setNotice(null);
    const running = start(session);
    // The new turn is in the conversation now (unless a spend confirmation holds it): show it.
    this.options.changed();
    try {
      await running;
    } finally {
      if (session === runner.session) {
        await this.options.reloadConversations();
        this.options.changed();
      }
    }
  }

  async retry(turnId: string): Promise<void> {
    const turn = this.findTurn(turnId);
    if (!turn) return;
    if (turn.outcome.kind === "incomplete") await this.runTurn((session) => session.retryWithLargerBudget(turnId));
    else await this.runTurn((session) => session.regenerate(turnId));
  }

  /**
   * The person chose Chat Completions for the model a turn failed on ("no Responses interface here"): the choice is
   * saved for that relay and model, then the message goes again, as Retry would: one new request they started.
   */
  async useChatCompletions(turnId: string): Promise<void> {
    const last = this.findTurn(turnId)?.requests.at(-1);
    const relay = last?.relay ?? this.options.relay.activeRelay;
    if (!last || relay === null || !this.options.useProtocol) return;
    await this.options.useProtocol(relay, last.model, "chat");
    await this.runTurn((session) => session.regenerate(turnId));
  }

  /** Sends an edited message as a new version of the turn, with the context the original carried. */
  editAndResend(turnId: string, text: string): Promise<void> {
    const turn = this.findTurn(turnId);
    const blocks = turn ? splitMessage(turn.userText).blocks : "";
    const message = [this.withoutKeys(text.trim()), blocks].filter(Boolean).join("\n\n");
    return this.runTurn((session) => session.editAndResend(turnId, message));
  }

  /** Asks for a summary of the turns before the last few (the person clicked Summarize earlier turns). */
  summarizeEarlierTurns(): Promise<void> {
    return this.runTurn(async (session) => {
      try {
        await session.summarizeEarlierTurns();
      } catch (error) {
        // A short conversation has nothing to summarize yet: said as information, not as "Something went wrong".
        if (!(error instanceof NothingToSummarize)) throw error;
        this.options.setNotice(error.message);
      }
    });
  }

  /** The person chose to send an incomplete turn with later messages (its message and partial answer). */
  async includeIncompleteTurn(turnId: string): Promise<void> {
    await this.options.runner.session?.changes.includeIncompleteTurn(turnId);
    this.options.changed();
  }

  /** `text` with every stored relay key taken out: what the person and the workspace give goes to the model without them. */
  withoutKeys(text: string): string {
    return removeKeys(text, relayKeys(this.options.relay));
  }

  private findTurn(turnId: string) {
    const conversation = this.options.runner.conversation;
    return conversation ? findTurn(conversation, turnId) : undefined;
  }

  private canSend(): boolean {
    if (this.options.runningElsewhere()) {
      this.options.setNotice(l10n.t("A message of this conversation is still being answered in another window. It is shown read-only until that answer ends."));
      return false;
    }
    if (!this.options.relay.current()) {
      this.options.setNotice(this.options.relay.missing());
      return false;
    }
    if (!this.options.model()) {
      this.options.setNotice(l10n.t("Pick a model first (the model list comes from the relay)."));
      return false;
    }
    return true;
  }
}
