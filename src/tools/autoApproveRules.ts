// Approval rules from the `relayChat.tools.autoApprove` user setting: which calls may run without a card.
// Pure (no vscode): the host reads the setting from the User settings only and passes the raw value in at
// every decision, so a change applies at once.
//
// Shape (documented in docs/tools-and-approval.md, "Approval rules"):
//   {
//     "read_file": "always",                 // a read-only tool: "always" or "ask"
//     "run_command": {
//       "allow": ["npm test", "git diff*", { "pattern": "npm run build", "match": "exact" }],
//       "deny": ["git push*"]
//     }
//   }
// A pattern string without `*` is a prefix that must end at a word boundary ("npm test" allows "npm test" and
// "npm test -- --grep x", not "npm testing"); with `*` it is a glob over the whole command line (`*` = any
// characters). The object form names the match ("prefix", "exact", "glob") and may set `"shellSyntax": true`.
// An allow pattern never matches a command line with leading or trailing whitespace, with characters other than
// printable ASCII (hidden characters, look-alikes), or with shell syntax that chains, substitutes or redirects
// (`;` `&` `|` `<` `>` `$` backticks, parentheses, backslashes, line breaks), unless the rule sets
// `"shellSyntax": true`; characters other than printable ASCII never match. Deny patterns are checked against
// the whole line and each command in it, also as the shell gives it its words (see commandForms.ts), and win:
// a denied command always asks. A line that cannot be reduced to words safely asks unless an exact shellSyntax
// rule names it.
// "always" counts for read-only tools only; edits and other extensions' tools always show their card.

import { commandForms } from "./commandForms";

export type PatternMatch = "prefix" | "exact" | "glob";

export interface CommandPattern {
  readonly pattern: string;
  readonly match: PatternMatch;
  /** The rule may match a line with chaining, substitution or redirection. */
  readonly shellSyntax: boolean;
}

export interface AutoApproveRules {
  /** Read-only tools set to "always". */
  readonly alwaysTools: ReadonlySet<string>;
  /** Tools set to "ask" explicitly: they ask even when the person let read-only tools run on first use. */
  readonly askTools: ReadonlySet<string>;
  readonly commandAllow: readonly CommandPattern[];
  readonly commandDeny: readonly CommandPattern[];
  /** What was ignored in the setting and why (English, for the output log). */
  readonly problems: readonly string[];
}

export const RUN_COMMAND_TOOL = "run_command";

/** The rule as a person reads it on a tool card and in the log, e.g. `run_command allow "npm test"`. */
export type RuleLabel = string;

export type RuleDecision = { readonly kind: "allow"; readonly rule: RuleLabel } | { readonly kind: "ask"; readonly deniedBy: RuleLabel | null };

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
 * What the rules say about one call: allowed by a rule, or ask (with the deny rule that matched, if any).
 * `readOnlyDefault`: the person let read-only tools run without asking on first use; a tool set to "ask" still asks.
 */
export function decideByRules(call: { readonly toolName: string; readonly risk: string; readonly command?: unknown }, rules: AutoApproveRules, readOnlyDefault = false): RuleDecision {
  if (call.toolName === RUN_COMMAND_TOOL) {
    if (typeof call.command !== "string") return { kind: "ask", deniedBy: null };
    const denied = rules.commandDeny.find((pattern) => deniedCommand(call.command as string, pattern));
    if (denied) return { kind: "ask", deniedBy: ruleLabel(denied, "deny") };
    // A line whose words are only known when the shell runs it could be any command: a card, unless the person
    // allowed this very line (an exact rule) and no deny rule reads in it.
    if (commandForms(call.command) === null && !rules.commandAllow.some((pattern) => pattern.match === "exact" && pattern.shellSyntax && pattern.pattern === call.command)) {
      return { kind: "ask", deniedBy: null };
    }
    const allowed = rules.commandAllow.find((pattern) => allowedCommand(call.command as string, pattern));
    return allowed ? { kind: "allow", rule: ruleLabel(allowed, "allow") } : { kind: "ask", deniedBy: null };
  }
  if (call.risk === "read" && rules.alwaysTools.has(call.toolName)) return { kind: "allow", rule: `${call.toolName}: always` };
  if (call.risk === "read" && readOnlyDefault && !rules.askTools.has(call.toolName)) return { kind: "allow", rule: READ_ONLY_DEFAULT_RULE };
  return { kind: "ask", deniedBy: null };
}

const printableAscii = /^[\x20-\x7E]*$/;
/** Chaining (; & | and newlines), substitution ($ ` parentheses), redirection (< >) and escapes (\). */
const shellSyntaxCharacters = /[;&|<>$`()\\\n\r]/;

export function hasShellSyntax(command: string): boolean {
  return shellSyntaxCharacters.test(command);
}

export function allowedCommand(command: string, pattern: CommandPattern): boolean {
  if (!printableAscii.test(command) || command !== command.trim()) return false;
  if (!pattern.shellSyntax && hasShellSyntax(command)) return false;
  return matches(command, pattern);
}

/**
 * Deny is read generously: the whole line, each command of a chain or substitution (trimmed), and each simple
 * command as the shell gives it its words (quotes removed, whitespace collapsed, wrappers and a program's global
 * options before its subcommand removed), so another spelling of a denied command is denied too.
 */
export function deniedCommand(command: string, pattern: CommandPattern): boolean {
  const pieces = [command, ...command.split(/[;&|<>$`()\n\r]+/)].map((piece) => piece.trim()).filter((piece) => piece !== "");
  const forms = commandForms(command) ?? [];
  return [...pieces, ...forms].some((piece) => matches(piece, pattern));
}

function matches(command: string, pattern: CommandPattern): boolean {
  switch (pattern.match) {
    case "exact":
      return command === pattern.pattern;
    case "prefix":
      return command === pattern.pattern || command.startsWith(`${pattern.pattern} `);
    case "glob":
      return globExpression(pattern.pattern).test(command);
  }
}

function globExpression(pattern: string): RegExp {
  const escaped = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${escaped}$`);
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
  allow.push(hasShellSyntax(command) ? { pattern: command, match: "exact", shellSyntax: true } : { pattern: command, match: "exact" });
  existing.allow = allow;
  setting[RUN_COMMAND_TOOL] = existing;
  return setting;
}

/** Whether "Always allow" can be offered: a command line that a rule could match exactly, or a read-only tool. */
export function canAlwaysAllow(call: { readonly toolName: string; readonly risk: string; readonly command?: unknown }): boolean {
  if (call.toolName === RUN_COMMAND_TOOL) return typeof call.command === "string" && call.command.trim() !== "" && printableAscii.test(call.command) && call.command === call.command.trim();
  return call.risk === "read";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
