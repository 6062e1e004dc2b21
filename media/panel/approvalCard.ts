import type { ApprovalDetailView, ApprovalView, HiddenCharacterView } from "../../src/panel/protocol";
import { renderCommandConcerns } from "./commandConcerns";
import { renderDiff } from "./diffView";
import { button, element, uniqueId } from "./dom";
import type { Localizer } from "./localizer";

export type ApprovalAnswer = "approve" | "deny" | "allow_session" | "always_allow" | "read_only_always";

const riskExplanations: Record<ApprovalView["risk"], string> = {
  read: "Reads from your workspace.",
  write: "Changes files in your workspace.",
  execute: "Runs a command on your machine.",
  external: "A tool of another extension or an MCP server: Relay Chat cannot tell what it does.",
};

const hiddenKindNames: Record<HiddenCharacterView["kind"], string> = {
  bidirectional: "bidirectional control",
  invisible: "invisible character",
  control: "control character",
  space: "unusual space",
};

/**
 * A tool call waiting for the user. The arguments are shown as they will be used (a command line as plain
 * text, paths relative to the workspace), so what the user approves is what runs; hidden characters arrive
 * from the host already replaced by visible markers, and are listed in a warning.
 */
export function renderApprovalCard(approval: ApprovalView, localizer: Localizer, answer: (callId: string, answer: ApprovalAnswer) => void): HTMLElement {
  const risk: ApprovalView["risk"] = approval.risk === "write" || approval.risk === "execute" || approval.risk === "external" ? approval.risk : "read";
  const headingId = uniqueId("approval-heading");
  const buttons: HTMLButtonElement[] = [];
  // One answer per card: the host drops the card with the next state, until then the buttons stay disabled.
  const choose = (choice: ApprovalAnswer) => {
    for (const each of buttons) each.disabled = true;
    answer(approval.callId, choice);
  };
  const hidden = approval.hiddenCharacters ?? [];
  buttons.push(button(localizer.text("Approve"), () => choose("approve"), { className: "primary" }));
  buttons.push(button(localizer.text("Deny"), () => choose("deny"), { className: "secondary" }));
  if (approval.canAllowForSession && hidden.length === 0) buttons.push(button(localizer.text("Allow for this session"), () => choose("allow_session"), { className: "secondary" }));
  if (approval.alwaysAllow && hidden.length === 0) {
    const label = approval.alwaysAllow === "command" ? localizer.text("Always allow this command") : localizer.format("Always allow {0}", approval.toolName);
    // The host shows the exact rule and asks before writing it to the User settings.
    buttons.push(button(`${label}…`, () => choose("always_allow"), { className: "secondary always-allow" }));
  }

  return element("section", { className: `approval-card risk-${risk}`, attributes: { "aria-labelledby": headingId } }, [
    element("div", { className: "approval-heading", attributes: { id: headingId } }, [
      element("span", { text: `${localizer.text("Approval needed")}: ` }),
      element("span", { className: "tool-name", text: approval.toolName }),
    ]),
    element("div", { className: "approval-risk" }, [
      element("span", { className: "risk-badge", text: localizer.text(risk) }),
      element("span", { text: ` ${risk === "read" ? "" : "⚠ "}${localizer.text(riskExplanations[risk])}` }),
    ]),
    hidden.length > 0 ? hiddenCharacterWarning(hidden, localizer) : null,
    approval.deniedByRule ? element("p", { className: "approval-note approval-denied-by", text: localizer.format("Asks because of your rule {0}.", approval.deniedByRule) }) : null,
    renderCommandConcerns(approval.commandConcerns ?? [], localizer),
    ...(approval.details === undefined ? rawArguments(approval, localizer) : shownArguments(approval, approval.details, localizer)),
    typeof approval.followUpInputTokens === "number"
      ? element("p", { className: "approval-follow-up", text: localizer.format("After this call, the result goes back to the model in a new request of about {0} input tokens (an estimate), which the relay may bill.", localizer.number(approval.followUpInputTokens)) })
      : null,
    element("div", { className: "approval-buttons" }, buttons),
    approval.offerReadOnlyDefault && hidden.length === 0 ? readOnlyQuestion(localizer, choose, buttons) : null,
    // What the tool tells the model about itself is long and in English; it stays behind a disclosure.
    element("details", { className: "approval-description" }, [
      element("summary", { text: localizer.text("What the model was told about this tool") }),
      element("p", { text: approval.toolDescription }),
    ]),
  ]);
}

/** The one first-use question about read-only tools; any other answer to this card is remembered as "keep asking". */
function readOnlyQuestion(localizer: Localizer, choose: (choice: ApprovalAnswer) => void, cardButtons: HTMLButtonElement[]): HTMLElement {
  const yes = button(localizer.text("Stop asking for reads"), () => choose("read_only_always"), { className: "secondary" });
  cardButtons.push(yes);
  return element("div", { className: "approval-read-only-question" }, [
    element("p", { text: localizer.text("Let read-only tools (read, list, search) run without asking from now on? Asked once: any other answer keeps them asking.") }),
    yes,
  ]);
}

/** Without details (an older host), the JSON of the arguments, as before. */
function rawArguments(approval: ApprovalView, localizer: Localizer): HTMLElement[] {
  return [element("div", { className: "tool-arguments-label", text: localizer.text("Arguments") }), element("pre", { className: "tool-arguments", text: approval.argumentsJson })];
}

/**
 * The arguments as they will be used; a file change as a diff in place of the arguments it shows (its text
 * with "\n" escapes said little). The exact JSON stays one click away, collapsed.
 */
function shownArguments(approval: ApprovalView, details: readonly ApprovalDetailView[], localizer: Localizer): HTMLElement[] {
  const runsCommand = details.some((detail) => detail.role === "command");
  const diff = approval.diff ?? null;
  const inDiff = new Set(diff?.arguments ?? []);
  const listed = details.filter((detail) => !inDiff.has(detail.name) || detail.note !== null);
  const shown = listed.flatMap((detail) => [
    element("div", { className: "tool-arguments-label", text: labelOf(detail, runsCommand, localizer) }),
    // <bdo dir="ltr"> lays every character out in stored order: right-to-left text cannot reorder what is around it.
    element("pre", { className: "tool-arguments", attributes: { "data-argument": detail.name } }, [element("bdo", { attributes: { dir: "ltr" } }, detail.segments.map(segmentNode))]),
    ...(detail.note === null ? [] : [element("div", { className: "approval-note", text: noteOf(detail.note, localizer) })]),
  ]);
  const json = element("details", { className: "approval-json" }, [
    element("summary", { text: localizer.text("Arguments as sent (JSON)") }),
    element("pre", { className: "tool-arguments", text: approval.argumentsJson }),
  ]);
  return [...shown, ...(diff === null ? [] : [renderDiff(diff, localizer)]), json];
}

function segmentNode(segment: ApprovalDetailView["segments"][number]): Node {
  return segment.marker ? element("mark", { className: "hidden-character", text: segment.text }) : document.createTextNode(segment.text);
}

function labelOf(detail: ApprovalDetailView, runsCommand: boolean, localizer: Localizer): string {
  switch (detail.role) {
    case "command":
      return localizer.text("Command line");
    case "folder":
      return runsCommand ? localizer.text("Working folder") : localizer.text("Folder");
    case "path":
      return localizer.text("File");
    case "value":
      return detail.name;
  }
}

function noteOf(note: NonNullable<ApprovalDetailView["note"]>, localizer: Localizer): string {
  return note === "default" ? localizer.text("Not given: the workspace folder.") : `⚠ ${localizer.text("Outside the workspace: the tool will refuse it.")}`;
}

function hiddenCharacterWarning(hidden: readonly HiddenCharacterView[], localizer: Localizer): HTMLElement {
  const listed = hidden.map((character) => `${character.codePoint} (${localizer.text(hiddenKindNames[character.kind] ?? hiddenKindNames.invisible)})`).join(", ");
  return element("p", { className: "approval-warning", attributes: { role: "alert" } }, [
    element("strong", { text: `⚠ ${localizer.text("Hidden characters")}: ` }),
    element("span", {
      text: localizer.format(
        "{0}. They are shown as ⟨U+…⟩ markers; what runs may differ from what the text seems to say. This call cannot be allowed for the session.",
        listed,
      ),
    }),
  ]);
}
