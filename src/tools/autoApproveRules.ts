// Approval rules from the `relayChat.tools.autoApprove` user setting: which calls may run without a card.
// Pure (no vscode): the host reads the setting from the User settings only and passes the raw value in at
// every decision, so a change applies at once.
//
// Shape (documented in docs/tools-and-approval.md, "Approval rules"):
//   {
//     "read_file": "always",                 // a read-only tool: "always" or "ask"
//     "run_command": {
//       "allow": ["npm test", "git diff*", { "pattern": "npm run build", "match": "exact" }],
//       "deny": ["git push", "rm -rf"]
//     }
//   }
// A pattern string without `*` is a prefix, with `*` a glob; the object form names the match ("prefix", "exact",
// "glob") and may set `"shellSyntax": true`. What a run_command rule approves and denies is decided by the
// command-safety module (commandSafety/ruleMatching.ts): a prefix or glob rule approves the program and words it
// names plus options Relay Chat knows to be safe; an exact rule approves exactly its line; a deny rule names a
// behaviour in any spelling and wins. "always" counts for read-only tools only; edits and other extensions' tools
// always show their card.

import type { ConcernKind } from "./commandSafety/commandNode";
import type { CommandPattern, PatternMatch } from "./commandSafety/ruleMatching";
import { decideCommand, isPlainCommandText, narrowedMeaning, needsShellSyntaxFlag, ruleWords } from "./commandSafety/ruleMatching";
import type { ShellDialect } from "./commandSafety/shellLine";
import { systemShellDialect } from "./commandSafety/shellLine";

export type { CommandPattern, PatternMatch };

export interface AutoApproveRules {
  /** Read-only tools set to "always". */
  readonly alwaysTools: ReadonlySet<string>;
  /** Tools set to "ask" explicitly: they ask even when the person let read-only tools run on first use. */
  readonly askTools: ReadonlySet<string>;
  readonly commandAllow: readonly CommandPattern[];
  readonly commandDeny: readonly CommandPattern[];
  /** What was ignored in the setting and why, and rules whose meaning is narrower than their text (English, for the output log). */
  readonly problems: readonly string[];
}

export const RUN_COMMAND_TOOL = "run_command";

/** The rule as a person reads it on a tool card and in the log, e.g. `run_command allow "npm test"`. */
export type RuleLabel = string;

/** Why a rule that names the command did not approve it, for the card: e.g. "--output=../x" writes a file. */
export interface CommandConcern {
  readonly rule: RuleLabel;
  readonly kind: ConcernKind;
  readonly subject: string;
}

export type RuleDecision =
  | { readonly kind: "allow"; readonly rule: RuleLabel }
  | { readonly kind: "ask"; readonly deniedBy: RuleLabel | null; readonly concerns?: readonly CommandConcern[] };

export const noRules: AutoApproveRules = { alwaysTools: new Set(), askTools: new Set(), commandAllow: [], commandDeny: [], problems: [] };

/** The rule shown for a read-only call that ran because the person chose so on their first read-only card. */
export const READ_ONLY_DEFAULT_RULE: RuleLabel = "read-only tools: always (your first-use choice)";

export function parseAutoApproveRules(value: unknown): AutoApproveRules {
  if (value === undefined || value === null) return noRules;
  if (!isRecord(value)) return { ...noRules, problems: ["relayChat.tools.autoApprove must be an object; it was ignored."] };
  const problems: string[] = [];
  const alwaysTools = new Set<string>();
  const askTools = new Set<string>();
  let commandAllow: CommandPattern[] = [];
  let commandDeny: CommandPattern[] = [];
  for (const [toolName, setting] of Object.entries(value)) {
    if (toolName === RUN_COMMAND_TOOL && isRecord(setting)) {
      commandAllow = parsePatterns(setting.allow, "allow", problems);
      commandDeny = parsePatterns(setting.deny, "deny", problems);
      for (const key of Object.keys(setting)) if (key !== "allow" && key !== "deny") problems.push(`run_command: unknown key "${key}" was ignored.`);
    } else if (setting === "always") {
      alwaysTools.add(toolName);
    } else if (setting === "ask") {
      askTools.add(toolName);
    } else {
      problems.push(`${toolName}: expected "ask" or "always"${toolName === RUN_COMMAND_TOOL ? ' or { "allow": [...], "deny": [...] }' : ""}; it was ignored.`);
    }
  }
  return { alwaysTools, askTools, commandAllow, commandDeny, problems };
}

function parsePatterns(value: unknown, list: "allow" | "deny", problems: string[]): CommandPattern[] {
  const patterns = parseEntries(value, list, problems);
  if (list === "deny") return patterns;
  // An allow rule approves what it names and options known to be safe: say where that is narrower than its text.
  return patterns.filter((pattern) => {
    const words = pattern.match === "exact" ? null : ruleWords(pattern);
    if (typeof words === "string") problems.push(`run_command.allow: ${words}; the entry ${JSON.stringify(pattern.pattern)} was ignored.`);
    const narrowed = narrowedMeaning(pattern);
    if (narrowed !== null) problems.push(`run_command.allow ${JSON.stringify(pattern.pattern)}: ${narrowed}`);
    return typeof words !== "string";
  });
}

function parseEntries(value: unknown, list: "allow" | "deny", problems: string[]): CommandPattern[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push(`run_command.${list} must be a list; it was ignored.`);
    return [];
  }
  const patterns: CommandPattern[] = [];
  for (const entry of value) {
    const parsed = parsePattern(entry);
    if (typeof parsed === "string") problems.push(`run_command.${list}: ${parsed}; the entry ${JSON.stringify(entry)} was ignored.`);
    else patterns.push(parsed);
  }
  return patterns;
}

/** The pattern, or why it is not one. */
function parsePattern(entry: unknown): CommandPattern | string {
  const pattern = typeof entry === "string" ? entry : isRecord(entry) ? entry.pattern : undefined;
  if (typeof pattern !== "string") return 'expected a string or { "pattern": "..." }';
  if (pattern.trim() === "") return "an empty pattern would match everything";
  if (pattern !== pattern.trim()) return "a pattern cannot start or end with whitespace";
  const match = isRecord(entry) && entry.match !== undefined ? entry.match : pattern.includes("*") ? "glob" : "prefix";
  if (match !== "prefix" && match !== "exact" && match !== "glob") return '"match" must be "prefix", "exact" or "glob"';
  const shellSyntax = isRecord(entry) && entry.shellSyntax === true;
  return { pattern, match, shellSyntax };
}

export function ruleLabel(pattern: CommandPattern, list: "allow" | "deny"): RuleLabel {
  const qualifiers = [pattern.match === "exact" ? "exact" : null, pattern.shellSyntax ? "shellSyntax" : null].filter((each) => each !== null);
  return `${RUN_COMMAND_TOOL} ${list} ${JSON.stringify(pattern.pattern)}${qualifiers.length > 0 ? ` (${qualifiers.join(", ")})` : ""}`;
}

/**
 * What the rules say about one call: allowed by a rule, or ask (with the deny rule that matched, if any, and why the
 * rules that name the command did not approve it). `readOnlyDefault`: the person let read-only tools run without
 * asking on first use; a tool set to "ask" still asks. `dialect`: the shell run_command hands the line to.
 */
export function decideByRules(
  call: { readonly toolName: string; readonly risk: string; readonly command?: unknown },
  rules: AutoApproveRules,
  readOnlyDefault = false,
  dialect: ShellDialect = systemShellDialect(),
): RuleDecision {
  if (call.toolName === RUN_COMMAND_TOOL) {
    if (typeof call.command !== "string") return { kind: "ask", deniedBy: null };
    const verdict = decideCommand(call.command, rules.commandAllow, rules.commandDeny, dialect);
    if (verdict.kind === "allow") return { kind: "allow", rule: ruleLabel(verdict.pattern, "allow") };
    if (verdict.deniedBy !== null) return { kind: "ask", deniedBy: ruleLabel(verdict.deniedBy, "deny") };
    return { kind: "ask", deniedBy: null, concerns: verdict.concerns.map((concern) => ({ rule: ruleLabel(concern.pattern, "allow"), kind: concern.kind, subject: concern.subject })) };
  }
  if (call.risk === "read" && rules.alwaysTools.has(call.toolName)) return { kind: "allow", rule: `${call.toolName}: always` };
  if (call.risk === "read" && readOnlyDefault && !rules.askTools.has(call.toolName)) return { kind: "allow", rule: READ_ONLY_DEFAULT_RULE };
  return { kind: "ask", deniedBy: null };
}

/**
 * The setting with one more rule, for "Always allow this command" (an exact rule, with shellSyntax only when the
 * line needs it) and "Always allow read_file". Everything else in the setting is kept as it was.
 */
export function withRuleAdded(current: unknown, toolName: string, command: string | null): Record<string, unknown> {
  const setting: Record<string, unknown> = isRecord(current) ? { ...current } : {};
  if (command === null) {
    setting[toolName] = "always";
    return setting;
  }
  const existing = isRecord(setting[RUN_COMMAND_TOOL]) ? { ...(setting[RUN_COMMAND_TOOL] as Record<string, unknown>) } : {};
  const allow = Array.isArray(existing.allow) ? [...existing.allow] : [];
  allow.push(needsShellSyntaxFlag(command, systemShellDialect()) ? { pattern: command, match: "exact", shellSyntax: true } : { pattern: command, match: "exact" });
  existing.allow = allow;
  setting[RUN_COMMAND_TOOL] = existing;
  return setting;
}

/** Whether "Always allow" can be offered: a command line that a rule could match exactly, or a read-only tool. */
export function canAlwaysAllow(call: { readonly toolName: string; readonly risk: string; readonly command?: unknown }): boolean {
  if (call.toolName === RUN_COMMAND_TOOL) return typeof call.command === "string" && call.command.trim() !== "" && isPlainCommandText(call.command);
  return call.risk === "read";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
