import * as l10n from "@vscode/l10n";
import { answerTextOf } from "../../chat/answerText";
import { composeMessage } from "../context/messageAttachments";
import type { TurnStarter } from "./turnStarter";

// /commit: the staged changes go to the model in one request the person started (a turn like any other,
// with its receipt), and the answer's text is put in the Source Control message box. Nothing is committed:
// the person reviews the message and commits in Source Control. The host reaches Git (src/host/context/gitCommitBox.ts).

/** The staged diff of the repository Source Control shows, or why there is none. */
export type StagedChanges = { ok: true; diff: string; repository: string } | { ok: false; problem: string };

export interface CommitMessageWriter {
  staged(): Promise<StagedChanges>;
  /** Puts `message` in the repository's Source Control message box (never commits). */
  write(repository: string, message: string): Promise<void>;
}

/** A longer staged diff is cut (characters; about 15,000 tokens): the summary line needs the gist, not every line. */
export const COMMIT_DIFF_LIMIT_CHARS = 60_000;

export class CommitMessageRun {
  constructor(
    private readonly writer: CommitMessageWriter,
    private readonly turns: TurnStarter,
    private readonly setNotice: (notice: string | null) => void,
  ) {}

  /** `withCommand` runs the send with /commit's prompt and no tools. */
  async start(withCommand: (send: () => Promise<void>) => Promise<void>): Promise<void> {
    const staged = await this.writer.staged();
    if (!staged.ok) {
      this.setNotice(staged.problem);
      return;
    }
    const diff = staged.diff.length > COMMIT_DIFF_LIMIT_CHARS ? `${staged.diff.slice(0, COMMIT_DIFF_LIMIT_CHARS)}\n[... the staged diff was cut at ${COMMIT_DIFF_LIMIT_CHARS} characters]` : staged.diff;
    // A staged .env or config holding a relay key goes without it.
    const message = composeMessage("/commit", [{ kind: "file", label: l10n.t("Staged changes of {0}", staged.repository), text: this.turns.withoutKeys(diff), language: "diff" }]);
    await withCommand(() =>
      this.turns.runTurn(async (session) => {
        const result = await session.send(message);
        if (result.status !== "finished" || result.turn.outcome.kind !== "completed") return;
        const text = commitMessageFrom(answerTextOf(result.turn));
        if (text === "") {
          await session.changes.recordCommandNote(result.turn.id, l10n.t("The answer has no text, so nothing was put in Source Control."));
          return;
        }
        await this.writer.write(staged.repository, text);
        await session.changes.recordCommandNote(result.turn.id, l10n.t("This commit message is now in the Source Control message box of {0}. Nothing was committed: review it there and commit.", staged.repository));
      }),
    );
  }
}

/** The answer as a commit message: without a code fence around it, trimmed. */
export function commitMessageFrom(answer: string): string {
  const trimmed = answer.trim();
  const fenced = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\1\s*$/.exec(trimmed);
  return (fenced ? fenced[2] : trimmed).trim();
}
