// Programs that start another command given in their own words: env, timeout, nice, nohup, time, stdbuf, command,
// builtin, exec (pass-throughs: the command they start is what a rule must approve), and sudo, doas, su and xargs
// (the command runs as another user, or with words taken from input no rule can see: always a card).
import type { Analyzer, CommandNode } from "./commandNode";
import { commandNode } from "./commandNode";
import type { OptionTable, ParseStyle } from "./optionParsing";
import { optionTable, parseArguments, tableOptionNames } from "./optionParsing";
import { isAssignment, isHarmlessVariable, programName } from "./words";

/** A wrapper whose options end at its command; `positionalsBefore` words (timeout's duration) come first. */
function wrapper(table: OptionTable, options: { positionalsBefore?: number; style?: ParseStyle } = {}): Analyzer {
  return (words, context) => {
    const style = options.style ?? {};
    const parsed = parseArguments(words, 1, table, style);
    const commandStart = parsed.end + (options.positionalsBefore ?? 0);
    const command = words.slice(commandStart);
    return commandNode({
      words,
      program: programName(words[0] ?? ""),
      options: parsed.options,
      positionals: words.slice(parsed.end, commandStart).map((word, offset) => ({ word, index: parsed.end + offset })),
      concerns: parsed.concerns,
      passThrough: command.length > 0,
      inner: command.length > 0 ? [{ kind: "command", node: context.analyzeWords(command) }] : [],
      optionNames: tableOptionNames(table, style),
    });
  };
}

const envOptions = optionTable({
  "-i --ignore-environment": true,
  "-0 --null": true,
  "-v --debug": true,
  "-u --unset": { value: "required" },
  "-C --chdir": { value: "required", path: true },
  "-S --split-string": { value: "required", concern: "runsCode" },
});

/** env [options] [NAME=value...] [command]: assignments that can change what runs are concerns; -S splits a string into a command. */
const env: Analyzer = (words, context) => {
  const parsed = parseArguments(words, 1, envOptions);
  const concerns = [...parsed.concerns];
  let index = parsed.end;
  for (; index < words.length && isAssignment(words[index] ?? ""); index++) {
    const name = (words[index] ?? "").split("=")[0] ?? "";
    if (!isHarmlessVariable(name)) concerns.push({ kind: "environment", subject: name, index });
  }
  const command = words.slice(index);
  const inner: CommandNode["inner"][number][] = [];
  const split = parsed.options.find((option) => option.name === "--split-string");
  if (split?.value != null) {
    // env -S 'git push' origin: the string's words, then the words after it.
    const line = context.analyzeLine(split.value);
    const only = line.commands.length === 1 && line.unreadable === null ? line.commands[0] : undefined;
    inner.push(only !== undefined ? { kind: "command", node: context.analyzeWords([...only.node.words, ...command]) } : { kind: "line", line });
  } else if (command.length > 0) inner.push({ kind: "command", node: context.analyzeWords(command) });
  return commandNode({ words, program: "env", options: parsed.options, concerns, passThrough: inner.length > 0, inner, optionNames: tableOptionNames(envOptions) });
};

const timeoutOptions = optionTable({ "-s --signal": { value: "required" }, "-k --kill-after": { value: "required" }, "--preserve-status": true, "--foreground": true, "-v --verbose": true });
const niceOptions = optionTable({ "-n --adjustment": { value: "required" } });
const timeOptions = optionTable({ "-p --portability": true, "-v --verbose": true, "-q --quiet": true, "-a --append": true, "-f --format": { value: "required" }, "-o --output": { value: "required", concern: "writesFile" } });
const stdbufOptions = optionTable({ "-i --input": { value: "required" }, "-o --output": { value: "required" }, "-e --error": { value: "required" } });
const execOptions = optionTable({ "-a": { value: "required" }, "-c": true, "-l": true });
const commandOptions = optionTable({ "-p": true, "-v": true, "-V": true });

/** `command -v git` only looks a name up; `command git push` runs it. */
const command: Analyzer = (words, context) => {
  const parsed = parseArguments(words, 1, commandOptions);
  if (parsed.options.some((option) => option.name === "-v" || option.name === "-V")) {
    return commandNode({ words, program: "command", options: parsed.options, positionals: words.slice(parsed.end).map((word, offset) => ({ word, index: parsed.end + offset })) });
  }
  return wrapper(commandOptions)(words, context);
};

const sudoOptions = optionTable(
  Object.fromEntries(["-u --user", "-g --group", "-h --host", "-p --prompt", "-C --close-from", "-D --chdir", "-r --role", "-t --type", "-T --command-timeout", "-U --other-user"].map((names) => [names, { value: "required" as const }])),
  Object.fromEntries(["-A --askpass", "-b --background", "-E --preserve-env", "-H --set-home", "-i --login", "-k --reset-timestamp", "-K --remove-timestamp", "-n --non-interactive", "-P --preserve-groups", "-S --stdin", "-s --shell", "-e --edit"].map((names) => [names, true as const])),
);
const doasOptions = optionTable({ "-u": { value: "required" }, "-C": { value: "required" }, "-n": true, "-s": true, "-L": true });

/** sudo and doas: the command runs as another user, which no rule approves; its words are still read for deny rules. */
function asOtherUser(table: OptionTable): Analyzer {
  return (words, context) => {
    const node = wrapper(table)(words, context);
    return { ...node, passThrough: false, concerns: [...node.concerns, { kind: "otherUser", subject: words[0] ?? "", index: -1 }] };
  };
}

/** su [options] [user] [-c command]: the command is a shell script. */
const su: Analyzer = (words, context) => {
  const scriptIndex = words.findIndex((word, index) => index > 0 && (word === "-c" || word === "--command"));
  const script = scriptIndex > 0 ? words[scriptIndex + 1] : undefined;
  return commandNode({
    words,
    program: "su",
    concerns: [{ kind: "otherUser", subject: "su", index: -1 }],
    inner: script === undefined ? [] : [{ kind: "line", line: context.analyzeLine(script) }],
  });
};

const xargsOptions = optionTable(
  Object.fromEntries(["-a --arg-file", "-d --delimiter", "-E", "-I", "-L", "-n --max-args", "-P --max-procs", "--process-slot-var", "-s --max-chars"].map((names) => [names, { value: "required" as const }])),
  Object.fromEntries(["-e --eof", "-i --replace", "-l --max-lines"].map((names) => [names, { value: "attached" as const }])),
  Object.fromEntries(["-0 --null", "-p --interactive", "-r --no-run-if-empty", "-t --verbose", "-x --exit", "--show-limits", "-o --open-tty"].map((names) => [names, true as const])),
);

/** xargs appends words read from its input to its command (echo by default): what runs is only known then. */
const xargs: Analyzer = (words, context) => {
  const parsed = parseArguments(words, 1, xargsOptions);
  const command = words.slice(parsed.end);
  const inner = context.analyzeWords(command.length > 0 ? command : ["echo"]);
  return commandNode({
    words,
    program: "xargs",
    options: parsed.options,
    concerns: [...parsed.concerns, { kind: "inputCommands", subject: "xargs", index: -1 }],
    inner: [{ kind: "command", node: { ...inner, open: true } }],
    optionNames: tableOptionNames(xargsOptions),
  });
};

export const wrapperAnalyzers: ReadonlyMap<string, Analyzer> = new Map<string, Analyzer>([
  ["env", env],
  ["timeout", wrapper(timeoutOptions, { positionalsBefore: 1 })],
  ["nice", wrapper(niceOptions, { style: { numericOption: true } })],
  ["nohup", wrapper(optionTable({}))],
  ["time", wrapper(timeOptions)],
  ["stdbuf", wrapper(stdbufOptions)],
  ["command", command],
  ["builtin", wrapper(optionTable({}))],
  ["exec", wrapper(execOptions)],
  ["sudo", asOtherUser(sudoOptions)],
  ["doas", asOtherUser(doasOptions)],
  ["su", su],
  ["xargs", xargs],
]);
