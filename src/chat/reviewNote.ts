import type { Conversation } from "./conversation";
import { activePath } from "./conversation";

// What the model is told about what the person did with its changes to files. propose_edit's result says
// only that the edit awaits review: the person keeps or undoes it later, in the editor, after the result was
// sent; and Restore files to before this turn puts files back long after the model saw them changed. Without
// a word about that the model goes on believing an undone edit is in the file, and its next edit is planned
// against text that is not there. So the next message of a conversation that changed files carries one
// short note, sent before the person's text and shown with it in the panel. The note is for the model, so
// it is English whatever the display language.

export type ReviewResult = "kept" | "undone" | "partly_kept" | "changed_by_person" | "in_review" | "restored" | "restore_undone";

export interface ReviewOutcome {
  /** The file as the person sees it (workspace-relative). */
  readonly path: string;
  readonly result: ReviewResult;
  /** For `partly_kept`: how many of the changed parts were kept, of how many. */
  readonly kept?: number;
  readonly total?: number;
}

/** What the panel reads before a send, and tells once a turn carried it. */
export interface ReviewReport {
  /** What happened since the last note (each file once, its latest), and the files still in review, of changes `conversationId` proposed. */
  outcomes(conversationId: string): ReviewOutcome[];
  /** The note that carried these is part of the history now: they are not told again. */
  told(conversationId: string, outcomes: readonly ReviewOutcome[]): void;
}

/** A file in review, with the conversations whose model proposed changes to it. */
export interface LiveReviewOutcome extends ReviewOutcome {
  readonly conversationIds: readonly string[];
}

/**
 * The outcomes waiting to be told, per conversation: only the conversation whose model proposed a change (or
 * whose turn's changes were restored) hears what became of it; another conversation's model never made that
 * change and would be misled. The editor's review (src/host/review/editReview.ts) and the checkpoint restore
 * (src/host/review/checkpointReview.ts) settle them here; files still in review come from `live` at each read.
 */
export class ReviewNotes implements ReviewReport {
  private readonly settled = new Map<string, ReviewOutcome[]>();
  private live: () => LiveReviewOutcome[] = () => [];

  /** Where the files still in review are read from at each send. */
  setLive(live: () => LiveReviewOutcome[]): void {
    this.live = live;
  }

  /** A file's latest outcome replaces an earlier one not yet told to that conversation. */
  settle(conversationId: string, outcome: ReviewOutcome): void {
    const waiting = this.settled.get(conversationId) ?? [];
    this.settled.set(conversationId, [...waiting.filter((each) => each.path !== outcome.path), outcome]);
  }

  outcomes(conversationId: string): ReviewOutcome[] {
    const inReview = this.live()
      .filter((outcome) => outcome.conversationIds.includes(conversationId))
      .map(({ path, result }): ReviewOutcome => ({ path, result }));
    return [...(this.settled.get(conversationId) ?? []), ...inReview];
  }

  told(conversationId: string, outcomes: readonly ReviewOutcome[]): void {
    const left = (this.settled.get(conversationId) ?? []).filter((outcome) => !outcomes.includes(outcome));
    if (left.length === 0) this.settled.delete(conversationId);
    else this.settled.set(conversationId, left);
  }
}

/** Whether the branch on screen changed files (proposed edits, ran commands, took checkpoints): then a note about them is its business. */
export function changedFilesOnBranch(conversation: Conversation): boolean {
  return activePath(conversation).some((turn) => turn.checkpoint !== undefined || turn.toolCalls.some((call) => call.name === "propose_edit" || call.name === "run_command"));
}

/** The note, one line per file; null when there is nothing to tell. */
export function reviewNoteText(outcomes: readonly ReviewOutcome[]): string | null {
  if (outcomes.length === 0) return null;
  const lines = outcomes.map((outcome) => `- ${outcome.path}: ${describe(outcome)}`);
  return `[Relay Chat: what the user did with your changes to files since the last message]\n${lines.join("\n")}`;
}

function describe(outcome: ReviewOutcome): string {
  switch (outcome.result) {
    case "kept":
      return "kept; the file is saved with your change.";
    case "undone":
      return "undone; the file is as it was before your change.";
    case "partly_kept":
      return `${outcome.kept ?? "some"} of ${outcome.total ?? "the"} changed parts kept, the others undone; read the file before editing it again.`;
    case "changed_by_person":
      return "the user edited the file themselves during the review; read it before editing it again.";
    case "in_review":
      return "still in review: your change is in the editor, not yet kept or undone.";
    case "restored":
      return "restored by the user to before the turn that changed it; your changes to it are gone.";
    case "restore_undone":
      return "the user undid a restore: the file is as it was after your changes again.";
  }
}
