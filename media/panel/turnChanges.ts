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

export function renderTurnChanges(changedFiles: number, localizer: Localizer, choose: (action: "review" | "restore") => void): HTMLElement {
  return element("div", { className: "turn-changes" }, [
    element("span", { className: "turn-changes-count" }, [icon("files"), element("span", { text: localizer.plural(changedFiles, "{0} file changed", "{0} files changed") })]),
    button(localizer.text("Review"), () => choose("review"), { className: "secondary turn-changes-review" }),
    button(localizer.text("Restore files to before this turn"), () => choose("restore"), { className: "secondary turn-changes-restore" }),
  ]);
}
