import { button, element } from "./dom";
import { icon } from "./icons";
import type { Localizer } from "./localizer";

// "N files changed" under a turn whose tools changed files, with Review (the diff list) and Restore (back to
// before the turn, which the host confirms and lets the user undo).

/** Above the tools of a turn whose checkpoint failed: its file changes will have no Restore. */
export function renderNoCheckpoint(reason: string, localizer: Localizer): HTMLElement {
  return element("div", { className: "turn-no-checkpoint", attributes: { role: "status" } }, [
    icon("warning"),
    element("span", { text: localizer.format("No checkpoint: Restore will not be possible ({0}).", reason) }),
  ]);
}

/** Once restored, the line says so and offers Undo restore in place of Restore (a notification would go away). */
export function renderTurnChanges(changedFiles: number, restored: boolean, localizer: Localizer, choose: (action: "review" | "restore" | "undoRestore") => void): HTMLElement {
  const count = localizer.plural(changedFiles, "{0} file changed", "{0} files changed");
  return element("div", { className: "turn-changes" }, [
    element("span", { className: "turn-changes-count" }, [icon("files"), element("span", { text: restored ? localizer.format("{0} · restored", count) : count })]),
    button(localizer.text("Review"), () => choose("review"), { className: "secondary turn-changes-review" }),
    restored
      ? button(localizer.text("Undo restore"), () => choose("undoRestore"), { className: "secondary turn-changes-undo-restore" })
      : button(localizer.text("Restore files to before this turn"), () => choose("restore"), { className: "secondary turn-changes-restore" }),
  ]);
}
