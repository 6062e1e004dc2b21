import type { TaskItemView, ToHost } from "../../src/panel/protocol";
import { element, uniqueId } from "./dom";
import { icon, iconButton } from "./icons";
import type { Localizer } from "./localizer";

/**
 * The task list the model keeps with update_tasks, pinned above the message box: a header with "2/5 done"
 * that folds the list away, and one line per item with a box to tick (done, or back to pending) and a button
 * to remove it. An item in progress shows its box half-filled. The host saves every change with the
 * conversation and sends the list as it is with the next request.
 */
export class TaskListView {
  readonly root = element("section", { className: "task-list" });
  private readonly toggle: HTMLButtonElement;
  private readonly count = element("span", { className: "task-count" });
  private readonly current = element("span", { className: "task-current" });
  private readonly items = element("ol", { className: "task-items" });
  private expanded = true;
  private signature = "";

  constructor(private readonly localizer: Localizer, private readonly post: (message: ToHost) => void) {
    const heading = element("span", { className: "task-list-title", text: localizer.text("Tasks") });
    this.toggle = element("button", { className: "task-list-toggle", attributes: { type: "button", "aria-expanded": "true" } }, [icon("chevron-down", "task-list-chevron"), icon("checklist"), heading, this.count, this.current]);
    this.toggle.addEventListener("click", () => this.setExpanded(!this.expanded));
    this.items.id = uniqueId("task-items");
    this.toggle.setAttribute("aria-controls", this.items.id);
    this.root.setAttribute("aria-label", localizer.text("Task list"));
    this.root.append(this.toggle, this.items);
    this.root.hidden = true;
  }

  update(tasks: readonly TaskItemView[]): void {
    const signature = JSON.stringify(tasks);
    if (signature === this.signature) return;
    this.signature = signature;
    this.root.hidden = tasks.length === 0;
    const done = tasks.filter((task) => task.status === "done").length;
    this.count.textContent = this.localizer.format("{0}/{1} done", done, tasks.length);
    // Folded, the header still says what is being worked on.
    const working = tasks.find((task) => task.status === "in_progress");
    this.current.textContent = working ? working.text : "";
    const hadFocus = this.items.contains(document.activeElement) ? document.activeElement : null;
    const focusedIndex = hadFocus instanceof HTMLElement ? Number(hadFocus.closest("li")?.dataset["index"] ?? -1) : -1;
    const focusedRemove = hadFocus instanceof HTMLElement && hadFocus.classList.contains("task-remove");
    this.items.replaceChildren(...tasks.map((task, index) => this.renderItem(task, index)));
    // A tick or a removal rebuilds the list: focus stays where the person was working.
    if (focusedIndex >= 0) {
      const item = this.items.children[Math.min(focusedIndex, this.items.children.length - 1)];
      const target = item?.querySelector<HTMLElement>(focusedRemove ? ".task-remove" : "input") ?? this.toggle;
      target.focus();
    }
  }

  private setExpanded(expanded: boolean): void {
    this.expanded = expanded;
    this.toggle.setAttribute("aria-expanded", String(expanded));
    this.root.classList.toggle("collapsed", !expanded);
    this.items.hidden = !expanded;
  }

  private renderItem(task: TaskItemView, index: number): HTMLElement {
    const box = element("input", { className: "task-box", attributes: { type: "checkbox" } });
    box.checked = task.status === "done";
    box.indeterminate = task.status === "in_progress";
    box.setAttribute("aria-label", task.text);
    box.title = task.status === "done" ? this.localizer.text("Done: untick to mark it pending") : task.status === "in_progress" ? this.localizer.text("In progress: tick when done") : this.localizer.text("Pending: tick when done");
    box.addEventListener("change", () => this.post({ type: "editTask", action: "toggle", index, text: task.text }));
    const text = element("span", { className: "task-text", text: task.text });
    const status = task.status === "in_progress" ? element("span", { className: "task-status", text: this.localizer.text("in progress") }) : null;
    const remove = iconButton("close", this.localizer.format("Remove task {0}", task.text), () => this.post({ type: "editTask", action: "remove", index, text: task.text }), "task-remove");
    return element("li", { className: `task-item status-${task.status}`, attributes: { "data-index": String(index) } }, [box, text, status, remove]);
  }
}
