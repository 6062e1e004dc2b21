// How run_command rules read a command line once commandAnalysis has understood it.
//
// Allow: a prefix or glob rule names a program and the words after it ("npm test", "git diff*"); it approves a
// command that is that program and those words, plus only options and arguments the program's table knows to be
// safe. A word the rule spells out is the person's own choice and is never second-guessed; every other concern
// (code run or loaded, files written or deleted, paths outside the workspace, unknown options, aliases,
// abbreviations) needs a card. Wrappers and `sh -c` scripts are looked through: what they start must be approved.
// A line that chains, pipes or redirects needs every command approved by a rule with "shellSyntax": true.
// An exact rule approves exactly its line, as the person saw it on a card.
//
// Deny: a rule names a behaviour. It matches the program in any spelling (path, case, .exe), the subcommand as the
// program resolves it (npm publ is publish, git send-pack pushes), its options in any order or bundling (rm -fr,
// rm -r -f, rm --recursive --force) and everything the command starts (bash -c, env -S, xargs, find -exec,
// git -c alias.p=push, timeout 5 ...). The old text match of the whole line and each command is kept as well.
import type { CommandNode, Concern, ConcernKind, LineAnalysis } from "./commandNode";
import { allNodes } from "./commandNode";
import { analyzeLine, knowsProgram } from "./commandAnalysis";
import { npmCommand } from "./npmCommands";
import type { ShellDialect } from "./shellLine";
import { isUnreadable, readShellLine } from "./shellLine";
import { isHarmlessTarget, programName, reachesOutsideWorkspace } from "./words";

export type PatternMatch = "prefix" | "exact" | "glob";

export interface CommandPattern {
  readonly pattern: string;
  readonly match: PatternMatch;
  /** The rule may match a line with chaining, substitution or redirection. */
  readonly shellSyntax: boolean;
}

/** Why a rule that names a command did not approve it. */
export interface RuleConcern {
  readonly pattern: CommandPattern;
  readonly kind: ConcernKind;
  readonly subject: string;
}

export type CommandVerdict =
  | { readonly kind: "allow"; readonly pattern: CommandPattern }
  | { readonly kind: "ask"; readonly deniedBy: CommandPattern | null; readonly concerns: readonly RuleConcern[] };

/** The words a prefix or glob rule spells out, or why it cannot name a command. */
export interface RuleWords {
  readonly words: readonly string[];
  /** The last word may continue (`git diff*` covers diff-tree). */
  readonly lastWordOpen: boolean;
  /** A glob with more after its first `*`: the command's words must match it as well. */
  readonly tail: RegExp | null;
}

export function ruleWords(pattern: CommandPattern): RuleWords | string {
  const star = pattern.match === "glob" ? pattern.pattern.indexOf("*") : -1;
  const literal = star < 0 ? pattern.pattern : pattern.pattern.slice(0, star);
  if (literal.trim() === "") return "a rule must begin with the program it allows";
  const reading = readShellLine(literal.trimEnd());
  if (isUnreadable(reading) || reading.commands.length !== 1 || reading.operators.length > 0 || (reading.commands[0]?.redirections.length ?? 0) > 0) {
    return 'a prefix or glob rule names one command; a line that chains or redirects needs "match": "exact"';
  }
  const words = reading.commands[0]?.words ?? [];
  const rest = star < 0 ? "" : pattern.pattern.slice(star);
  return { words, lastWordOpen: star >= 0 && !/\s$/.test(literal), tail: rest === "" || rest === "*" ? null : globExpression(pattern.pattern) };
}

/** What a rule of a program in no table means now, for the log; null when the program is known. */
export function narrowedMeaning(pattern: CommandPattern): string | null {
  const words = pattern.match === "exact" ? null : ruleWords(pattern);
  if (words === null || typeof words === "string") return null;
  const program = words.words[0] ?? "";
  if (knowsProgram(program)) return null;
  return `Relay Chat does not know the arguments of ${program}, so this rule approves ${JSON.stringify(words.words.join(" "))} only with the words it spells out.`;
}

const printableAscii = /^[\x20-\x7E]*$/;
/** Chaining (; & | and newlines), substitution ($ ` parentheses), redirection (< >) and escapes (\). */
const shellSyntaxCharacters = /[;&|<>$`()\\\n\r]/;

function hasShellSyntax(command: string): boolean {
  return shellSyntaxCharacters.test(command);
}

/**
 * Whether an exact rule for this line must say `"shellSyntax": true`: the line chains, substitutes or redirects, or
 * its words are only known when it runs (a glob, a variable).
 */
export function needsShellSyntaxFlag(command: string, dialect: ShellDialect = "posix"): boolean {
  return hasShellSyntax(command) || analyzeLine(command, dialect).unreadable !== null;
}

/** Whether the line is plain text a rule may match: printable ASCII, nothing at either end. */
export function isPlainCommandText(command: string): boolean {
  return printableAscii.test(command) && command === command.trim();
}

export function decideCommand(command: string, allow: readonly CommandPattern[], deny: readonly CommandPattern[], dialect: ShellDialect): CommandVerdict {
  const line = analyzeLine(command, dialect);
  const denied = deny.find((pattern) => deniedBy(command, line, pattern, dialect));
  if (denied !== undefined) return { kind: "ask", deniedBy: denied, concerns: [] };
  // A line whose words are only known when it runs (a glob, $VAR) needs an exact rule that says it knows that.
  const needsFlag = hasShellSyntax(command) || line.unreadable !== null;
  const exact = allow.find((pattern) => pattern.match === "exact" && pattern.pattern === command && isPlainCommandText(command) && (pattern.shellSyntax || !needsFlag));
  if (exact !== undefined) return { kind: "allow", pattern: exact };
  const rules = allow.flatMap((pattern) => {
    const words = pattern.match === "exact" ? null : ruleWords(pattern);
    return words === null || typeof words === "string" ? [] : [{ pattern, ...words }];
  });
  const verdict = approveLine(line, rules);
  if (!isPlainCommandText(command)) {
    const near = verdict.approvedBy ?? verdict.nearMisses[0]?.pattern;
    return { kind: "ask", deniedBy: null, concerns: near === undefined ? [] : [{ pattern: near, kind: "notPlainText", subject: "" }] };
  }
  if (verdict.approvedBy !== null) return { kind: "allow", pattern: verdict.approvedBy };
  return { kind: "ask", deniedBy: null, concerns: uniqueConcerns(verdict.nearMisses) };
}

interface Rule extends RuleWords {
  readonly pattern: CommandPattern;
}

interface Verdict {
  readonly approvedBy: CommandPattern | null;
  readonly nearMisses: readonly RuleConcern[];
  /** It runs nothing (fi, done, the words of a for loop, `then` on its own): no rule is needed for it. */
  readonly neutral?: boolean;
}

function approveLine(line: LineAnalysis, rules: readonly Rule[]): Verdict {
  if (line.unreadable !== null) {
    const near = rules.find((rule) => line.text.includes(rule.words[0] ?? "\0"));
    return { approvedBy: null, nearMisses: near === undefined ? [] : [{ pattern: near.pattern, kind: "unreadable", subject: line.unreadable }] };
  }
  const redirected = line.commands.some((command) => command.redirections.some((redirection) => !isDuplication(redirection) && !isHarmlessTarget(redirection.target)));
  const needsShellSyntax = line.commands.length > 1 || line.operators.some((operator) => operator !== "\n") || redirected;
  const nearMisses: RuleConcern[] = [];
  let approvedBy: CommandPattern | null = null;
  for (const command of line.commands) {
    const verdict = approveNode(command.node, rules, needsShellSyntax);
    const outside = command.redirections.filter((redirection) => !isDuplication(redirection) && !isHarmlessTarget(redirection.target) && reachesOutsideWorkspace(redirection.target));
    if ((verdict.approvedBy !== null || verdict.neutral === true) && outside.length === 0) {
      approvedBy ??= verdict.approvedBy;
      continue;
    }
    const blame = verdict.approvedBy ?? verdict.nearMisses[0]?.pattern;
    if (blame !== undefined) nearMisses.push(...outside.map((redirection) => ({ pattern: blame, kind: "outsideWorkspace" as const, subject: `${redirection.operator} ${redirection.target}` })));
    nearMisses.push(...verdict.nearMisses);
    return { approvedBy: null, nearMisses };
  }
  return { approvedBy, nearMisses };
}

/** 2>&1, >&2, <&0, >&-: a descriptor, not a file (bash reads `>& file` as a file). */
function isDuplication(redirection: { readonly operator: string; readonly target: string }): boolean {
  return redirection.operator.endsWith("&") && /^(?:[0-9]+-?|-)$/.test(redirection.target);
}

function approveNode(node: CommandNode, rules: readonly Rule[], needsShellSyntax: boolean): Verdict {
  if (node.passThrough && node.inner.length === 0 && node.concerns.length === 0) return { approvedBy: null, nearMisses: [], neutral: true };
  const nearMisses: RuleConcern[] = [];
  for (const rule of rules) {
    const coverage = ruleCoverage(rule, node);
    // A rule naming a wrapper (env*, timeout*) does not approve what it starts, unless it spells out every word.
    if (coverage === null || (node.passThrough && !node.words.every((_word, index) => coverage.spells(index)))) continue;
    const uncovered = node.concerns.filter((concern) => !coverage.covers(concern));
    if (uncovered.length === 0 && (!needsShellSyntax || rule.pattern.shellSyntax)) return { approvedBy: rule.pattern, nearMisses: [] };
    const reasons: Concern[] = uncovered.length > 0 ? uncovered : [{ kind: "shellSyntax", subject: "", index: -1 }];
    nearMisses.push(...reasons.map((concern) => ({ pattern: rule.pattern, kind: concern.kind, subject: concern.subject })));
  }
  if (!node.passThrough) return { approvedBy: null, nearMisses };
  let approvedBy: CommandPattern | null = null;
  for (const inner of node.inner) {
    const verdict = inner.kind === "command" ? approveNode(inner.node, rules, needsShellSyntax) : approveLine(inner.line, rules);
    if (verdict.neutral === true) continue;
    if (verdict.approvedBy === null) return { approvedBy: null, nearMisses: [...nearMisses, ...verdict.nearMisses] };
    approvedBy ??= verdict.approvedBy;
  }
  // The wrapper's own words (env -S, an assignment of PATH, an unknown option of timeout) are not any rule's.
  if (approvedBy !== null && node.concerns.length > 0) {
    const blame = approvedBy;
    return { approvedBy: null, nearMisses: [...nearMisses, ...node.concerns.map((concern) => ({ pattern: blame, kind: concern.kind, subject: concern.subject }))] };
  }
  return { approvedBy, nearMisses };
}

interface Coverage {
  /** The rule spells out this word of the command. */
  spells(index: number): boolean;
  covers(concern: Concern): boolean;
}

/** Which words of the command the rule spells out, or null when the rule does not name this command. */
function ruleCoverage(rule: Rule, node: CommandNode): Coverage | null {
  const words = rule.words;
  const first = words[0] ?? "";
  const written = node.words[0] ?? "";
  const open = (index: number) => rule.lastWordOpen && index === words.length - 1;
  const wordMatches = (ruleIndex: number, word: string | undefined) => word !== undefined && (word === words[ruleIndex] || (open(ruleIndex) && word.startsWith(words[ruleIndex] ?? "")));
  const literalProgram = wordMatches(0, written);
  const sameProgram = programName(first) === node.program || (open(0) && node.program.startsWith(programName(first)));
  if (!literalProgram && !sameProgram) return null;
  // A program reached through an open end must be one Relay Chat knows: `git*` is not `gitk`.
  if (open(0) && programName(written) !== programName(first) && !knowsProgram(written)) return null;
  const covered = new Set<number>(literalProgram ? [0] : []);
  let openIndex = open(0) ? 0 : -1;
  if (words.every((_word, index) => index === 0 || wordMatches(index, node.words[index]))) {
    words.forEach((_word, index) => covered.add(index));
    openIndex = rule.lastWordOpen ? words.length - 1 : -1;
  } else if (node.subcommandIndex > 0 && words.length > 1) {
    // `git -C . status` against "git status": the subcommand where the program reads it, the rest after it.
    const ruleSubcommand = node.program === "npm" ? (npmCommand(words[1] ?? "")?.command ?? words[1]) : words[1];
    const subcommandMatches = wordMatches(1, node.words[node.subcommandIndex]) || ruleSubcommand === node.subcommand;
    const restMatches = words.slice(2).every((_word, offset) => wordMatches(offset + 2, node.words[node.subcommandIndex + 1 + offset]));
    if (!subcommandMatches || !restMatches) return null;
    covered.add(node.subcommandIndex);
    words.slice(2).forEach((_word, offset) => covered.add(node.subcommandIndex + 1 + offset));
    openIndex = rule.lastWordOpen ? node.subcommandIndex + words.length - 2 : -1;
  } else return null;
  if (rule.tail !== null && !rule.tail.test(node.words.join(" ")) && !rule.tail.test([node.program, ...node.words.slice(1)].join(" "))) return null;
  return {
    spells: (index) => covered.has(index),
    // A name reached through the open end (`git diff*` reaching difftool) is not spelled out, so none of its
    // concerns is excused; an option the rule names (`--output*`) is, whatever its value.
    covers: (concern) => covered.has(concern.index) && (concern.index !== openIndex || node.words[openIndex] === words[words.length - 1] || (words[words.length - 1] ?? "").startsWith("-")),
  };
}

function uniqueConcerns(concerns: readonly RuleConcern[]): RuleConcern[] {
  const seen = new Set<string>();
  return concerns.filter((concern) => {
    const key = `${concern.pattern.pattern}\u0000${concern.kind}\u0000${concern.subject}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a deny rule reads in the line: as text (the line, each command) or as a behaviour of any command it runs. */
function deniedBy(command: string, line: LineAnalysis, pattern: CommandPattern, dialect: ShellDialect): boolean {
  const pieces = [command, ...command.split(/[;&|<>$`()\n\r]+/)].map((piece) => piece.trim()).filter((piece) => piece !== "");
  const nodes = [...commandNodes(line)];
  // cmd.exe drops ^ (g^it push); a POSIX shell keeps it, but reading the line both ways costs only a card.
  if (dialect === "posix" && command.includes("^")) nodes.push(...commandNodes(analyzeLine(command.replace(/\^/g, ""), dialect)));
  const forms = nodes.flatMap(nodeForms);
  return [...pieces, ...forms].some((piece) => textMatches(piece, pattern)) || nodes.some((node) => behaviourMatches(pattern, node));
}

function* commandNodes(line: LineAnalysis): Generator<CommandNode> {
  for (const command of line.commands) yield* allNodes(command.node);
}

/** The command as written, with its program's plain name, and with the options before its subcommand set aside. */
function nodeForms(node: CommandNode): string[] {
  const forms = [node.words.join(" "), [node.program, ...node.words.slice(1)].join(" ")];
  if (node.subcommandIndex > 0) forms.push([node.program, node.subcommand ?? "", ...node.words.slice(node.subcommandIndex + 1)].join(" "));
  return forms;
}

function textMatches(command: string, pattern: CommandPattern): boolean {
  switch (pattern.match) {
    case "exact":
      return command === pattern.pattern;
    case "prefix":
      return command === pattern.pattern || command.startsWith(`${pattern.pattern} `);
    case "glob":
      return globExpression(pattern.pattern).test(command);
  }
}

export function globExpression(pattern: string): RegExp {
  const escaped = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${escaped}$`);
}

/**
 * A deny rule's words as a behaviour: the program (any spelling), the subcommand as the program resolves it
 * (case-insensitively: Windows and macOS find git-PUSH), every option in any order or bundling, every other word
 * among the arguments. A command that takes more words from its input (xargs git) matches on what is visible.
 */
function behaviourMatches(pattern: CommandPattern, node: CommandNode): boolean {
  if (pattern.match === "exact") return false;
  const tokens = pattern.pattern.split(/\s+/).map((token) => token.replace(/^(["'])(.*)\1$/, "$2"));
  const program = tokens[0] ?? "";
  if (!wordGlob(programName(program)).test(node.program)) return false;
  let rest = tokens.slice(1);
  const subcommand = rest[0];
  if (node.subcommandIndex >= 0 && subcommand !== undefined && !subcommand.startsWith("-")) {
    const wanted = node.program === "npm" ? (npmCommand(subcommand.replace(/\*+$/, ""))?.command ?? subcommand) : subcommand;
    if (!wordGlob(wanted.toLowerCase() + (subcommand.endsWith("*") ? "*" : "")).test((node.subcommand ?? "").toLowerCase())) return false;
    rest = rest.slice(1);
  } else if (node.subcommandIndex < 0 && node.open) return true;
  if (node.open) return true;
  const written = node.options.map((option) => option.written);
  const names = new Set(node.options.flatMap((option) => [option.name, ...node.optionNames(option.written)]));
  const positionals = node.positionals.map((each) => each.word);
  const unknownLongOptions = node.concerns.filter((concern) => concern.kind === "unknownOption").map((concern) => concern.subject.split("=")[0] ?? "");
  return rest.every((token) => {
    if (token === "*" || token === "") return true;
    if (token.startsWith("-")) {
      const bare = token.replace(/\*+$/, "");
      if (token.startsWith("--") && token.endsWith("*")) return written.some((each) => each.startsWith(bare)) || [...names].some((each) => each.startsWith(bare));
      // GNU programs accept a unique start of a long option (rm --rec --for): such a start counts as the option.
      const abbreviations = unknownLongOptions.filter((each) => /^--[^-=]{2,}/.test(each));
      return node.optionNames(bare).every((name) => names.has(name) || abbreviations.some((each) => name.startsWith(each))) || written.includes(bare);
    }
    return positionals.some((word) => wordGlob(token).test(word));
  });
}

function wordGlob(pattern: string): RegExp {
  return globExpression(pattern);
}
