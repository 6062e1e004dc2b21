import type { ToHost } from "../../src/panel/protocol";

export type CodeBlockMessage = Extract<ToHost, { type: "copyText" | "insertCode" | "openCode" | "applyCode" }>;

/** What a code block's toolbar needs from the panel. */
export interface CodeBlockPanel {
  post(message: CodeBlockMessage): void;
  /** The localized UI string for an English one (src/panel/webviewStrings.ts). */
  text(english: string): string;
}

const copiedFeedbackMilliseconds = 1500;

/**
 * Adds the toolbar to a finished code block's header: Copy, Insert at cursor, Apply to file, Open in editor,
 * and a toggle between wrapping and scrolling long lines. Built as DOM with listeners (the CSP allows no
 * inline handlers); CSS shows it while the block is hovered or has keyboard focus.
 */
export function addCodeBlockToolbar(block: HTMLElement, panel: CodeBlockPanel): void {
  const header = block.querySelector<HTMLElement>(":scope > .code-header");
  if (header === null || header.querySelector(":scope > .code-actions") !== null) return;
  const code = (): string => block.querySelector("pre > code")?.textContent ?? "";
  const language = block.dataset["language"] ?? "";

  const actions = document.createElement("div");
  actions.className = "code-actions";
  actions.setAttribute("role", "toolbar");
  actions.setAttribute("aria-label", panel.text("Code block actions"));

  const copy = actionButton("copy", panel.text("Copy"), panel.text("Copy"), () => {
    panel.post({ type: "copyText", text: code() });
    showCopied(copy, panel.text("Copied"));
  });
  const wrap = actionButton("word-wrap", panel.text("Wrap lines"), panel.text("Wrap"), () => {
    const wrapped = block.classList.toggle("code-block-wrapped");
    wrap.setAttribute("aria-pressed", String(wrapped));
  });
  wrap.setAttribute("aria-pressed", "false");
  const buttons = [
    copy,
    actionButton("insert", panel.text("Insert at cursor"), panel.text("Insert"), () => panel.post({ type: "insertCode", code: code() })),
    actionButton("git-pull-request-go-to-changes", panel.text("Apply to file"), panel.text("Apply"), () =>
      // The turn whose answer holds the block, so the change is recorded with that turn's checkpoints.
      panel.post({ type: "applyCode", code: code(), language, file: block.dataset["file"] ?? "", turnId: block.closest<HTMLElement>("[data-turn-id]")?.dataset["turnId"] ?? "" }),
    ),
    actionButton("go-to-file", panel.text("Open in editor"), panel.text("Open"), () => panel.post({ type: "openCode", code: code(), language })),
    wrap,
  ];
  actions.append(...buttons);
  moveFocusWithArrowKeys(actions, buttons);
  header.appendChild(actions);
  if (codiconsAreStyled(copy)) actions.classList.add("code-actions-with-icons");
}

// A toolbar is one tab stop (the ARIA toolbar pattern): the arrow keys, Home and End move between its
// buttons, so Tab does not walk five buttons per code block of a long answer.
function moveFocusWithArrowKeys(toolbar: HTMLElement, buttons: readonly HTMLButtonElement[]): void {
  buttons.forEach((button, index) => (button.tabIndex = index === 0 ? 0 : -1));
  toolbar.addEventListener("keydown", (event) => {
    const index = buttons.indexOf(event.target as HTMLButtonElement);
    if (index === -1) return;
    const last = buttons.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    buttons[index]!.tabIndex = -1;
    buttons[next]!.tabIndex = 0;
    buttons[next]!.focus();
  });
}

let codiconsStyled: boolean | undefined;

// The codicon font comes with the panel's stylesheets (codicon.css declares it); where it is missing, buttons
// show short words instead of empty icons. Decided once, from the font faces the page's stylesheets declare:
// asking for a computed style instead would make the browser style the whole page at the first code block,
// tens of milliseconds of opening a conversation.
function codiconsAreStyled(button: HTMLButtonElement): boolean {
  if (codiconsStyled === undefined && button.isConnected) {
    codiconsStyled = false;
    document.fonts.forEach((face) => {
      if (face.family.replace(/["']/g, "") === "codicon") codiconsStyled = true;
    });
  }
  return codiconsStyled === true;
}

/** `label` names the action (accessible name, tooltip); `shortLabel` is the word shown beside or instead of the icon. */
function actionButton(icon: string, label: string, shortLabel: string, run: () => void): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "code-action";
  button.title = label;
  button.setAttribute("aria-label", label);
  const iconElement = document.createElement("span");
  iconElement.className = `codicon codicon-${icon}`;
  iconElement.setAttribute("aria-hidden", "true");
  const text = document.createElement("span");
  text.className = "code-action-label";
  text.textContent = shortLabel;
  button.append(iconElement, text);
  button.addEventListener("click", (event) => {
    event.preventDefault();
    event.stopPropagation();
    run();
  });
  return button;
}

function showCopied(button: HTMLButtonElement, copiedLabel: string): void {
  const label = button.querySelector(".code-action-label");
  const icon = button.querySelector(".codicon");
  if (label === null || icon === null || button.dataset["copied"] !== undefined) return;
  const original = label.textContent;
  button.dataset["copied"] = "";
  label.textContent = copiedLabel;
  icon.className = "codicon codicon-check";
  setTimeout(() => {
    label.textContent = original;
    icon.className = "codicon codicon-copy";
    delete button.dataset["copied"];
  }, copiedFeedbackMilliseconds);
}
