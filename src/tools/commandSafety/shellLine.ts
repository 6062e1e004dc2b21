// A small, careful reader of a command line for the approval rules: it turns the line into the simple commands
// the shell would run, each as the words the program receives (quotes removed, whitespace collapsed) with its
// redirections, or says it cannot. It never guesses: anything whose words depend on the shell's state at run time
// (variables, command substitution, globs, brace expansion, here-documents, subshells, unbalanced quotes) makes the
// whole line unreadable, and such a line always needs a card.
//
// Two dialects, because run_command hands the line to the system shell: /bin/sh on POSIX systems, cmd.exe on
// Windows. cmd.exe knows no single quotes and no backslash escapes, escapes with ^ and expands %NAME%.

export type ShellDialect = "posix" | "cmd";

export interface Redirection {
  /** ">", ">>", "<", ">|", "<>", or a duplication such as ">&" (whose target is a descriptor, not a file). */
  readonly operator: string;
  readonly target: string;
}

export interface SimpleCommand {
  readonly words: readonly string[];
  readonly redirections: readonly Redirection[];
}

export interface ShellLine {
  readonly commands: readonly SimpleCommand[];
  /** The operators between commands, in order (";", "&&", "||", "|", "&", a line break as "\n"). */
  readonly operators: readonly string[];
}

/** Why the words cannot be known before the shell runs the line: the construct that decides them, e.g. "$". */
export interface UnreadableLine {
  readonly unreadable: string;
}

export function isUnreadable(reading: ShellLine | UnreadableLine): reading is UnreadableLine {
  return "unreadable" in reading;
}

/** The platform's shell for run_command (Node's `shell: true`). */
export function systemShellDialect(platform: string = process.platform): ShellDialect {
  return platform === "win32" ? "cmd" : "posix";
}

const expansions = new Set(["$", "`", "(", ")", "*", "?", "["]);

export function readShellLine(line: string, dialect: ShellDialect = "posix"): ShellLine | UnreadableLine {
  return dialect === "cmd" ? readCmdLine(line) : readPosixLine(line);
}

/** Collects words and commands; the dialects differ only in how they read characters. */
class LineBuilder {
  readonly commands: SimpleCommand[] = [];
  readonly operators: string[] = [];
  private words: string[] = [];
  private redirections: Redirection[] = [];
  word = "";
  inWord = false;
  quoted = false;
  private pendingRedirection: string | null = null;

  endWord(): UnreadableLine | null {
    if (!this.inWord) return null;
    if (!this.quoted && (this.word === "{" || this.word === "}")) return { unreadable: this.word }; // a group of commands
    if (this.pendingRedirection !== null) {
      this.redirections.push({ operator: this.pendingRedirection, target: this.word });
      this.pendingRedirection = null;
    } else this.words.push(this.word);
    this.word = "";
    this.inWord = false;
    this.quoted = false;
    return null;
  }

  /**
   * Reads the redirection operator at `i` (one of `twoCharacter`, or < or >) and, after >& or <&, a descriptor; the
   * target word follows. The fd number written right before it (2>) belongs to it. Returns where reading goes on.
   */
  redirection(line: string, i: number, twoCharacter: readonly string[], descriptorPattern: RegExp): number | UnreadableLine {
    const operator = twoCharacter.find((candidate) => line.startsWith(candidate, i)) ?? line[i] ?? "";
    if (this.pendingRedirection !== null) return { unreadable: operator };
    if (this.inWord && !this.quoted && /^[0-9]*$/.test(this.word)) {
      this.word = "";
      this.inWord = false;
    } else {
      const problem = this.endWord();
      if (problem) return problem;
    }
    let next = i + operator.length;
    const descriptor = operator.endsWith("&") ? descriptorPattern.exec(line.slice(next))?.[0] : undefined;
    if (descriptor !== undefined) {
      // A duplication (2>&1) has no file target.
      this.redirections.push({ operator, target: descriptor });
      next += descriptor.length;
    } else this.pendingRedirection = operator;
    return next;
  }

  endCommand(operator: string | null): UnreadableLine | null {
    const problem = this.endWord();
    if (problem) return problem;
    if (this.pendingRedirection !== null) return { unreadable: this.pendingRedirection };
    if (this.words.length > 0 || this.redirections.length > 0) this.commands.push({ words: this.words, redirections: this.redirections });
    if (operator !== null && (this.words.length > 0 || this.redirections.length > 0 || operator === "\n")) this.operators.push(operator);
    this.words = [];
    this.redirections = [];
    return null;
  }

  finish(): ShellLine | UnreadableLine {
    return this.endCommand(null) ?? { commands: this.commands, operators: this.operators };
  }

  add(text: string, quoted: boolean): void {
    this.word += text;
    this.inWord = true;
    if (quoted) this.quoted = true;
  }
}

function readPosixLine(line: string): ShellLine | UnreadableLine {
  const built = new LineBuilder();
  let i = 0;
  while (i < line.length) {
    const c = line[i] ?? "";
    let problem: UnreadableLine | null = null;
    if (c === " " || c === "\t") {
      problem = built.endWord();
      i++;
    } else if (c === "\n" || c === ";" || c === "|" || c === "&") {
      const operator = line.startsWith("&&", i) || line.startsWith("||", i) ? line.slice(i, i + 2) : line.startsWith("|&", i) ? "|" : c;
      problem = built.endCommand(operator);
      i += line.startsWith("|&", i) ? 2 : operator.length;
    } else if (c === "<" || c === ">") {
      if (line.startsWith("<<", i)) return { unreadable: "<<" }; // a here-document: its body is read from later lines
      const read = built.redirection(line, i, [">>", ">|", "<>", ">&", "<&"], /^[0-9]+-?|^-/);
      if (typeof read !== "number") return read;
      i = read;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { unreadable: "'" };
      built.add(line.slice(i + 1, end), true);
      i = end + 1;
    } else if (c === '"') {
      const end = readDoubleQuoted(line, i + 1, built);
      if (typeof end !== "number") return end;
      i = end + 1;
    } else if (c === "\\") {
      const next = line[i + 1];
      if (next === undefined) return { unreadable: "\\" };
      if (next !== "\n") built.add(next, true); // a line continuation joins the two lines
      i += 2;
    } else if (c === "#" && !built.inWord) {
      const end = line.indexOf("\n", i); // a comment runs to the end of the line
      i = end < 0 ? line.length : end;
    } else if (c === "{") {
      const brace = braceExpansion(line, i);
      if (brace !== null) return { unreadable: brace };
      built.add(c, false);
      i++;
    } else if (expansions.has(c) || (c === "~" && !built.inWord && /^~[^/\s;&|<>]/.test(line.slice(i)))) {
      // Expansions, subshells, globs, another user's home: the words are only known when the shell runs the line.
      return { unreadable: c };
    } else if (isControl(c)) {
      return { unreadable: codePoint(c) };
    } else {
      built.add(c, false);
      i++;
    }
    if (problem) return problem;
  }
  return built.finish();
}

/** Carriage returns and other control characters: what the shell does with them depends on the shell. */
function isControl(c: string): boolean {
  return c === "\r" || c < " " || c === "\x7f";
}

function codePoint(c: string): string {
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Reads a double-quoted string from `start`; returns the index of the closing quote. */
function readDoubleQuoted(line: string, start: number, built: LineBuilder): number | UnreadableLine {
  let i = start;
  let text = "";
  for (;;) {
    if (i >= line.length) return { unreadable: '"' };
    const d = line[i];
    if (d === '"') break;
    if (d === "$" || d === "`") return { unreadable: d };
    if (d === "\\") {
      const next = line[i + 1];
      if (next === undefined) return { unreadable: '"' };
      if (next === "\n") i += 2;
      else if (next === '"' || next === "\\" || next === "$" || next === "`") {
        text += next;
        i += 2;
      } else {
        text += d;
        i++;
      }
      continue;
    }
    text += d;
    i++;
  }
  built.add(text, true);
  return i;
}

/** `{a,b}` and `{1..3}` expand to several words; a lone `{` or `{}` (as find -exec uses it) is a plain character. */
function braceExpansion(line: string, start: number): string | null {
  const rest = line.slice(start + 1);
  const end = /^[^\s;&|<>()'"\\{}]*\}/.exec(rest);
  if (end === null) return null;
  const inside = end[0].slice(0, -1);
  return inside.includes(",") || inside.includes("..") ? `{${inside}}` : null;
}

/**
 * cmd.exe: double quotes group words (the program receives them without the quotes), ^ escapes the next character
 * outside quotes, & && | || < > chain and redirect. Variables (%NAME%, !NAME!), parentheses, and characters a
 * Windows program may read its own way (backslashes before quotes) make the line unreadable.
 */
function readCmdLine(line: string): ShellLine | UnreadableLine {
  const built = new LineBuilder();
  let i = 0;
  while (i < line.length) {
    const c = line[i] ?? "";
    let problem: UnreadableLine | null = null;
    if (c === " " || c === "\t") {
      problem = built.endWord();
      i++;
    } else if (c === "\n" || c === "|" || c === "&") {
      const operator = line.startsWith("&&", i) || line.startsWith("||", i) ? line.slice(i, i + 2) : c;
      problem = built.endCommand(operator);
      i += operator.length;
    } else if (c === "<" || c === ">") {
      const read = built.redirection(line, i, [">>", ">&", "<&"], /^[0-9]/);
      if (typeof read !== "number") return read;
      i = read;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      if (end < 0) return { unreadable: '"' };
      const text = line.slice(i + 1, end);
      if (text.includes("%") || text.includes("!") || text.endsWith("\\")) return { unreadable: text.includes("%") ? "%" : text.includes("!") ? "!" : "\\\"" };
      built.add(text, true);
      i = end + 1;
    } else if (c === "^") {
      const next = line[i + 1];
      if (next === undefined || next === "\n" || next === "\r") return { unreadable: "^" };
      built.add(next, true);
      i += 2;
    } else if (c === "%" || c === "!" || c === "(" || c === ")") {
      return { unreadable: c };
    } else if (isControl(c)) {
      return { unreadable: codePoint(c) };
    } else {
      built.add(c, false);
      i++;
    }
    if (problem) return problem;
  }
  return built.finish();
}
