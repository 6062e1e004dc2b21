import type { CommandConcernView } from "../../src/panel/protocol";
import { element } from "./dom";
import type { Localizer } from "./localizer";

/** One sentence per reason an allow rule did not cover the command; {0} is the words it is about. */
const concernSentences: Record<CommandConcernView["kind"], string> = {
  runsCode: "{0} runs code or a command given on the line.",
  loadsCode: "{0} loads code into the program.",
  writesFile: "{0} writes to a file.",
  deletes: "{0} deletes files.",
  outsideWorkspace: "{0} reaches outside the workspace.",
  unknownOption: "{0} is not an option Relay Chat knows to be safe here.",
  unknownSubcommand: "{0} is not a command Relay Chat knows: it may be an alias, or a misspelling git corrects to another command.",
  abbreviation: "{0} is an abbreviation, which a rule never covers: it could stand for another command.",
  scriptArguments: "{0} goes to a script or program whose use of it no rule can check.",
  runsScript: "{0} runs a script whose commands no rule can check.",
  inputCommands: "{0} runs commands built from its input, which no rule can check.",
  environment: "The variable {0} can change what the program runs.",
  programSpelling: "{0} names the program differently from your rule (a path, another case, an extension): it may be another program.",
  otherUser: "{0} runs the command as another user.",
  unknownProgram: "Relay Chat does not know what {0} does with its arguments, so a rule covers only the words it spells out.",
  unreadable: "The shell decides this line's words only when it runs it ({0}).",
  shellSyntax: "The line chains, pipes or redirects commands, and the rule does not set \"shellSyntax\": true.",
  notPlainText: "The line has whitespace at an end or characters other than printable ASCII.",
};

/** Why the person's allow rules that name this command did not approve it, grouped by rule. */
export function renderCommandConcerns(concerns: readonly CommandConcernView[], localizer: Localizer): HTMLElement | null {
  if (concerns.length === 0) return null;
  const rules = [...new Set(concerns.map((concern) => concern.rule))];
  return element(
    "div",
    { className: "approval-note approval-not-covered" },
    rules.flatMap((rule) => [
      element("p", { text: localizer.format("Not covered by your rule {0}:", rule) }),
      element(
        "ul",
        {},
        concerns.filter((concern) => concern.rule === rule).map((concern) => element("li", { text: localizer.format(concernSentences[concern.kind], concern.subject) })),
      ),
    ]),
  );
}
