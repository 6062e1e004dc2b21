// Reads a command line into what it runs: each simple command through shell keywords (if, while, !), assignments
// (X=1) and the program's own table (gitCommands, npmCommands, fileCommands, wrapperCommands,
// interpreterCommands), recursively into what it starts (`bash -c '...'`, `timeout 5 ...`, `npm exec ...`).
// A program that is in no table is read word by word: a rule approves it only as far as the rule spells it out,
// and for deny rules every word after it may be the command it starts (setsid git push).
import type { Analyzer, AnalysisContext, CommandNode, Concern, InnerCommand, LineAnalysis } from "./commandNode";
import { commandNode } from "./commandNode";
import { fileAnalyzers } from "./fileCommands";
import { git } from "./gitCommands";
import { interpreterAnalyzers } from "./interpreterCommands";
import { npm, npx } from "./npmCommands";
import type { ShellDialect } from "./shellLine";
import { isUnreadable, readShellLine } from "./shellLine";
import { isAssignment, isHarmlessVariable, namesProgramByPath, programName } from "./words";
import { wrapperAnalyzers } from "./wrapperCommands";

const analyzers: ReadonlyMap<string, Analyzer> = new Map<string, Analyzer>([
  ...wrapperAnalyzers,
  ...interpreterAnalyzers,
  ...fileAnalyzers,
  ["git", git],
  ["npm", npm],
  ["npx", npx],
]);

/** Reserved words that start a compound command; the command after them is what runs. */
const keywords = new Set(["if", "then", "elif", "else", "do", "while", "until", "!", "coproc"]);
/** Reserved words that run nothing, or whose words are data (the list of a for loop). */
const structural = new Set(["fi", "done", "esac", "for", "select", "in", "[[", "]]"]);

/** Past this depth of scripts in scripts, or this many commands or words read, the line is not read further (and needs a card). */
const maximumDepth = 12;
const maximumCommands = 2_000;
const maximumWords = 50_000;

/** How much one analysis has read: a pathological line cannot make the host read for long. */
interface Budget {
  commands: number;
  words: number;
}

/** The program name tables use for a command word (python3.12 is python). */
function tableName(word: string): string {
  return programName(word).replace(/^(python|pypy|ruby|perl|php|lua|node)[0-9.]+$/, "$1");
}

export function knowsProgram(word: string): boolean {
  return analyzers.has(tableName(word));
}

export function analyzeLine(text: string, dialect: ShellDialect = "posix"): LineAnalysis {
  return readLine(text, dialect, 0, { commands: 0, words: 0 });
}

function readLine(text: string, dialect: ShellDialect, depth: number, budget: Budget): LineAnalysis {
  if (depth > maximumDepth) return { text, commands: [], operators: [], unreadable: "…" };
  const reading = readShellLine(text, dialect);
  if (isUnreadable(reading)) return { text, commands: [], operators: [], unreadable: reading.unreadable };
  const context = contextAt(dialect, depth + 1, budget);
  return {
    text,
    commands: reading.commands.map((command) => ({ node: context.analyzeWords(command.words), redirections: command.redirections })),
    operators: reading.operators,
    unreadable: null,
  };
}

function contextAt(dialect: ShellDialect, depth: number, budget: Budget): AnalysisContext {
  const context: AnalysisContext = {
    analyzeWords: (words) => analyzeWords(words, context, true),
    analyzeLine: (text) => readLine(text, dialect, depth, budget),
    spend: (words) => {
      budget.commands += 1;
      budget.words += words;
      return budget.commands <= maximumCommands && budget.words <= maximumWords && depth <= maximumDepth;
    },
  };
  return context;
}

export function analyzeCommandWords(words: readonly string[], dialect: ShellDialect = "posix"): CommandNode {
  return contextAt(dialect, 1, { commands: 0, words: 0 }).analyzeWords(words);
}

/** What is left of a line once the analysis has read too much: one node that needs a card. */
const exhausted: CommandNode = commandNode({ words: [], program: "", concerns: [{ kind: "unreadable", subject: "…", index: -1 }] });

function tooDeep(): CommandNode {
  return exhausted;
}

function analyzeWords(words: readonly string[], context: AnalysisContext, readSuffixes: boolean): CommandNode {
  if (!context.spend(words.length)) return tooDeep();
  const first = words[0];
  if (first === undefined) return commandNode({ words, program: "" });
  if (keywords.has(first)) {
    const rest = words.slice(1);
    return commandNode({ words, program: first, passThrough: true, inner: rest.length > 0 ? [{ kind: "command", node: context.analyzeWords(rest) }] : [] });
  }
  // Runs nothing: a pass-through with nothing inside needs no rule.
  if (structural.has(first)) return commandNode({ words, program: first, passThrough: true });
  if (isAssignment(first)) return assignments(words, context);
  const analyzer = analyzers.get(tableName(first));
  const node = analyzer !== undefined ? analyzer(words, context) : unknownProgram(words, context, readSuffixes);
  // ./git, /usr/bin/git, GIT and git.exe may run something else than the program the table describes.
  if (namesProgramByPath(first) || first !== programName(first)) return { ...node, concerns: [{ kind: "programSpelling", subject: first, index: 0 }, ...node.concerns] };
  return node;
}

/** X=1 Y=2 command: a variable that can change what runs (PATH, NODE_OPTIONS, GIT_*...) is a concern. */
function assignments(words: readonly string[], context: AnalysisContext): CommandNode {
  const concerns: Concern[] = [];
  let index = 0;
  for (; index < words.length && isAssignment(words[index] ?? ""); index++) {
    const name = (words[index] ?? "").split("=")[0] ?? "";
    if (!isHarmlessVariable(name)) concerns.push({ kind: "environment", subject: name, index });
  }
  const rest = words.slice(index);
  const inner: InnerCommand[] = rest.length > 0 ? [{ kind: "command", node: context.analyzeWords(rest) }] : [];
  return commandNode({ words, program: "", concerns, passThrough: true, inner });
}

/**
 * A program in no table: every word after it needs the rule to spell it out. For deny rules, each later word may be
 * a command it starts (setsid, flock, watch, strace...), read once (not again inside those readings).
 */
function unknownProgram(words: readonly string[], context: AnalysisContext, readSuffixes: boolean): CommandNode {
  const program = programName(words[0] ?? "");
  const rest = words.slice(1).map((word, offset) => ({ word, index: offset + 1 }));
  const inner: InnerCommand[] = [];
  for (const each of readSuffixes ? rest : []) {
    if (each.word.startsWith("-")) continue;
    const node = analyzeWords(words.slice(each.index), context, false);
    inner.push({ kind: "command", node });
    if (node === exhausted) break;
  }
  return commandNode({
    words,
    program,
    options: rest.filter((each) => each.word.startsWith("-")).map((each) => ({ name: each.word, written: each.word, index: each.index, value: null })),
    positionals: rest.filter((each) => !each.word.startsWith("-")),
    concerns: rest.map((each) => ({ kind: "unknownProgram" as const, subject: program, index: each.index })),
    inner,
  });
}
