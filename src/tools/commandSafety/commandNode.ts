// What Relay Chat understands of one simple command: the program, its subcommand and options as the program reads
// them, what else it starts, and every reason it needs the person (a concern). The rules (ruleMatching.ts) read
// these; the analysers (*Commands.ts) build them.

/** Why a command needs a card although a rule names its program. Shown on the card (webview strings) and in the log. */
export type ConcernKind =
  | "runsCode"
  | "loadsCode"
  | "writesFile"
  | "deletes"
  | "outsideWorkspace"
  | "unknownOption"
  | "unknownSubcommand"
  | "abbreviation"
  | "scriptArguments"
  | "runsScript"
  | "inputCommands"
  | "environment"
  | "programSpelling"
  | "otherUser"
  | "unknownProgram"
  | "unreadable"
  | "shellSyntax"
  | "notPlainText";

export interface Concern {
  readonly kind: ConcernKind;
  /** The words it is about, as written ("--output=../x", "git -c", "xargs"). */
  readonly subject: string;
  /**
   * The word of the command it is about; a rule that spells this word out covers it. -1: what the program is
   * (xargs, sudo, npx, a shell reading its input), which no prefix or glob rule covers, only an exact one.
   */
  readonly index: number;
}

export interface OptionUse {
  /** The name rules compare: the long name where there is one (-r and -R are "--recursive"). */
  readonly name: string;
  readonly written: string;
  readonly index: number;
  readonly value: string | null;
}

export interface Positional {
  readonly word: string;
  readonly index: number;
}

export interface CommandNode {
  /** The words the program receives, the program first. */
  readonly words: readonly string[];
  /** The program's name as every platform could run it (see programName). */
  readonly program: string;
  /** The subcommand as the program reads it (aliases and abbreviations resolved), for programs that have them. */
  readonly subcommand: string | null;
  readonly subcommandIndex: number;
  readonly options: readonly OptionUse[];
  readonly positionals: readonly Positional[];
  readonly concerns: readonly Concern[];
  /**
   * A wrapper or keyword that only starts its inner commands (timeout, env, nice, `bash -c`, `if`): it is approved
   * when its own words raise no concern and everything it starts is approved. A rule need not name it.
   */
  readonly passThrough: boolean;
  /** What it starts or may start: commands of its own words (timeout 5 git push), or scripts (sh -c '...'). */
  readonly inner: readonly InnerCommand[];
  /** More words than are written may reach the program (xargs appends its input). */
  readonly open: boolean;
  /** Short options of this program combine (-rf is -r -f), as rules are compared. */
  readonly optionNames: (written: string) => readonly string[];
}

export type InnerCommand = { readonly kind: "command"; readonly node: CommandNode } | { readonly kind: "line"; readonly line: LineAnalysis };

export interface AnalyzedCommand {
  readonly node: CommandNode;
  readonly redirections: readonly { readonly operator: string; readonly target: string }[];
}

export interface LineAnalysis {
  readonly text: string;
  readonly commands: readonly AnalyzedCommand[];
  /** Chains, pipes or background operators between commands. */
  readonly operators: readonly string[];
  /** Why the line's words are only known when it runs; null when they are known. */
  readonly unreadable: string | null;
}

/** Recursion into what a command starts, passed to the analysers so they need not import the dispatcher. */
export interface AnalysisContext {
  readonly analyzeWords: (words: readonly string[]) => CommandNode;
  readonly analyzeLine: (text: string) => LineAnalysis;
  /** Counts one more command of this many words; false once the analysis has read too much or gone too deep. */
  readonly spend: (words: number) => boolean;
}

/** Reads one program's words into a node; each family of programs has its own (gitCommands.ts, npmCommands.ts...). */
export type Analyzer = (words: readonly string[], context: AnalysisContext) => CommandNode;

/** Short options bundled GNU-style: -rf is -r and -f; a long option is itself. */
export function bundledShortOptions(written: string): readonly string[] {
  if (/^-[A-Za-z0-9]{2,}$/.test(written)) return [...written.slice(1)].map((letter) => `-${letter}`);
  return [written];
}

export function commandNode(fields: Partial<CommandNode> & Pick<CommandNode, "words" | "program">): CommandNode {
  return {
    subcommand: null,
    subcommandIndex: -1,
    options: [],
    positionals: [],
    concerns: [],
    passThrough: false,
    inner: [],
    open: false,
    optionNames: bundledShortOptions,
    ...fields,
  };
}

/** Every command a node stands for: itself and, depth first, everything it starts or may start. */
export function* allNodes(node: CommandNode): Generator<CommandNode> {
  yield node;
  for (const inner of node.inner) {
    if (inner.kind === "command") yield* allNodes(inner.node);
    else for (const command of inner.line.commands) yield* allNodes(command.node);
  }
}
