// The ways a simple command can be read against a rule: the words as written, and the words with what only
// changes how the program is started removed: environment assignments (X=1), wrappers that run the rest as a
// command (env, command, sudo, nohup, time, nice, exec, !), `sh -c "..."` and `eval`, and the global options of
// a program that come before its subcommand (git -C dir, git -c k=v, git --no-pager, npm --prefix x, npm -w a).
// So a deny of "git push*" also denies `sudo env X=1 git -C . --no-pager push`.

import { splitCommandLine } from "./shellWords";

/** Wrappers and the options of theirs that take a separate value. */
const wrappers: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["env", new Set(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"])],
  ["command", new Set<string>()],
  ["builtin", new Set<string>()],
  ["exec", new Set(["-a"])],
  ["nohup", new Set<string>()],
  ["time", new Set(["-f", "--format", "-o", "--output"])],
  ["nice", new Set(["-n", "--adjustment"])],
  ["sudo", new Set(["-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user"])],
  ["doas", new Set(["-u", "-C"])],
  ["stdbuf", new Set(["-i", "-o", "-e"])],
  ["timeout", new Set(["-s", "--signal", "-k", "--kill-after"])],
  ["!", new Set<string>()],
]);

/** Programs whose global options may come before the subcommand, with those that take a separate value. */
const globalOptionsWithValue: ReadonlyMap<string, ReadonlySet<string> | "any"> = new Map<string, ReadonlySet<string> | "any">([
  ["git", new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path", "--list-cmds"])],
  // npm, yarn and pnpm accept options anywhere and many of them take a value: any word after an option may be its value.
  ["npm", "any"],
  ["npx", "any"],
  ["yarn", "any"],
  ["pnpm", "any"],
]);

const shells = new Set(["sh", "bash", "dash", "zsh", "ksh"]);
const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Every reading of the line that a rule may be checked against, or null when the line cannot be reduced to words
 * safely (it then always needs a card).
 */
export function commandForms(line: string, depth = 0): string[] | null {
  if (depth > 3) return null;
  const commands = splitCommandLine(line);
  if (commands === null) return null;
  const forms: string[] = [];
  for (const words of commands) {
    const more = formsOfCommand(words, depth);
    if (more === null) return null;
    forms.push(...more);
  }
  return forms;
}

function formsOfCommand(written: readonly string[], depth: number): string[] | null {
  const forms = [written.join(" ")];
  let words = [...written];
  for (;;) {
    while (words.length > 0 && assignment.test(words[0] ?? "")) words = words.slice(1);
    const program = words[0];
    if (program === undefined) return forms;
    const wrapperOptions = wrappers.get(program);
    if (wrapperOptions !== undefined) {
      words = skipOptions(words.slice(1), wrapperOptions);
      continue;
    }
    if ((shells.has(program) && words.includes("-c")) || program === "eval") {
      const script = program === "eval" ? words.slice(1).join(" ") : words[words.indexOf("-c") + 1];
      if (script === undefined) return null;
      const inner = commandForms(script, depth + 1);
      if (inner === null) return null;
      return [...forms, words.join(" "), ...inner];
    }
    forms.push(words.join(" "));
    const options = globalOptionsWithValue.get(program);
    if (options !== undefined) forms.push(...subcommandForms(program, words.slice(1), options));
    return forms;
  }
}

function skipOptions(words: readonly string[], withValue: ReadonlySet<string>): string[] {
  let index = 0;
  while (index < words.length) {
    const word = words[index] ?? "";
    if (word === "--") return words.slice(index + 1);
    if (!word.startsWith("-") || word === "-") break;
    index += withValue.has(word) ? 2 : 1;
  }
  return words.slice(index);
}

/** The program followed by each word that may be its subcommand, once the options before it are removed. */
function subcommandForms(program: string, args: readonly string[], withValue: ReadonlySet<string> | "any"): string[] {
  const forms: string[] = [];
  let index = 0;
  while (index < args.length) {
    const word = args[index] ?? "";
    if (!word.startsWith("-")) break;
    const takesValue = withValue === "any" ? !word.includes("=") : withValue.has(word);
    if (takesValue && withValue === "any") {
      // The next word may be the option's value or the subcommand: read it both ways.
      if (index + 1 < args.length) forms.push([program, ...args.slice(index + 1)].join(" "));
      index += 2;
    } else index += takesValue ? 2 : 1;
  }
  if (index > 0 && index < args.length) forms.push([program, ...args.slice(index)].join(" "));
  return forms;
}
