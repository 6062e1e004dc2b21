// Shells and interpreters. A shell with -c runs a script given on the line: Relay Chat reads that script like any
// command line (a pass-through, as Codex reads `bash -lc`). Code given to an interpreter (node -e, perl -e,
// python -c, --require, --import) cannot be read: always a card. A script file is a card too: no rule can see the
// commands inside it, unless the rule spells the file out.
import type { Analyzer, CommandNode, Concern, ConcernKind } from "./commandNode";
import { commandNode } from "./commandNode";
import type { OptionEntry } from "./optionParsing";
import { optionTable, outsidePositionals, parseArguments, tableOptionNames } from "./optionParsing";
import { programName } from "./words";

const shellLetters = new Set([..."abefhkmnptuvxBCEHPTilrs"]);
const shellLongOptions = optionTable({
  "--norc": true,
  "--noprofile": true,
  "--login": true,
  "--posix": true,
  "--noediting": true,
  "--restricted": true,
  "--verbose": true,
  "--version": true,
  "--rcfile --init-file": { value: "required", concern: "loadsCode" },
});

/** sh, bash, dash, zsh, ksh: options (bundled letters, -o name, +o name), then `-c script` or a script file. */
const shell: Analyzer = (words, context) => {
  const concerns: Concern[] = [];
  let runsScript = false;
  let index = 1;
  for (; index < words.length; index++) {
    const word = words[index] ?? "";
    if (word === "--" || word === "-") {
      index++;
      break;
    }
    if (!/^[-+]/.test(word)) break;
    if (word.startsWith("--")) {
      const parsed = parseArguments(words, index, shellLongOptions, {}, index + 1);
      concerns.push(...parsed.concerns);
      index = parsed.end - 1;
      continue;
    }
    const letters = word.slice(1);
    if (letters === "o" || letters === "O") {
      index++; // the option's name
      continue;
    }
    for (const letter of letters) {
      if (letter === "c" && word.startsWith("-")) runsScript = true;
      else if (!shellLetters.has(letter)) concerns.push({ kind: "unknownOption", subject: word, index });
    }
  }
  const program = programName(words[0] ?? "");
  const first = words[index];
  if (runsScript && first !== undefined) {
    // The words after the script are its $0, $1...: data, which the script can only reach through $ (unreadable).
    return commandNode({ words, program, concerns, passThrough: true, inner: [{ kind: "line", line: context.analyzeLine(first) }] });
  }
  if (runsScript) concerns.push({ kind: "unknownOption", subject: "-c", index: index - 1 });
  // Without a script it runs what it reads from its input: `echo git push | bash`.
  if (first !== undefined) concerns.push(...scriptFile(words, index));
  else concerns.push({ kind: "inputCommands", subject: words[0] ?? "", index: -1 });
  return commandNode({ words, program, concerns });
};

/** A script file runs commands no rule sees; the words after it are the script's. */
function scriptFile(words: readonly string[], index: number): Concern[] {
  return [
    { kind: "runsScript", subject: words[index] ?? "", index },
    ...outsidePositionals([{ word: words[index] ?? "", index }]),
    ...words.slice(index + 1).map((word, offset) => ({ kind: "scriptArguments" as const, subject: word, index: index + 1 + offset })),
  ];
}

interface InterpreterSpec {
  /** Options whose value is code to run, or that run code another way (a debugger port, a compile step with BEGIN blocks). */
  readonly code?: readonly string[];
  /** Options that load code into the program (a module, a preload, a file of settings that can). */
  readonly load?: readonly string[];
  /** Options with a value that only tune the run. */
  readonly tuning?: readonly string[];
  readonly flags?: readonly string[];
  /** Options that, with or without a value, only report or tune. */
  readonly attachedValue?: readonly string[];
  /** An option after which the next word is a module that runs like a script (python -m). */
  readonly module?: readonly string[];
}

function entries(names: readonly string[] | undefined, entry: OptionEntry): Record<string, OptionEntry> {
  return Object.fromEntries((names ?? []).map((name) => [name, entry]));
}

/** Options of an interpreter, then a script file and its arguments. */
function interpreter(spec: InterpreterSpec): Analyzer {
  const concernOf = (kind: ConcernKind): OptionEntry => ({ value: "required", concern: kind });
  const table = optionTable(
    entries(spec.code, concernOf("runsCode")),
    entries(spec.load, concernOf("loadsCode")),
    entries(spec.tuning, { value: "required" }),
    entries(spec.attachedValue, { value: "attached" }),
    entries(spec.flags, true),
    entries(spec.module, { value: "required" }),
  );
  return (words) => {
    const parsed = parseArguments(words, 1, table);
    const concerns = [...parsed.concerns];
    const module = parsed.options.find((option) => spec.module?.includes(option.written));
    const gaveCode = parsed.options.some((option) => spec.code?.includes(option.name) || spec.code?.includes(option.written));
    if (module !== undefined) concerns.push({ kind: "runsScript", subject: `${module.written} ${module.value ?? ""}`, index: module.index });
    const scriptIndex = parsed.end < words.length ? parsed.end : -1;
    if (scriptIndex >= 0) concerns.push(...(module !== undefined || gaveCode ? words.slice(scriptIndex).map((word, offset) => ({ kind: "scriptArguments" as const, subject: word, index: scriptIndex + offset })) : scriptFile(words, scriptIndex)));
    // No script and no code: it runs what it reads from its input (`echo 'system "x"' | perl`), unless it only reports (--version).
    const reportsOnly = parsed.options.some((option) => ["-v", "--version", "-V", "-h", "--help"].includes(option.written));
    if (scriptIndex < 0 && module === undefined && !gaveCode && !reportsOnly) concerns.push({ kind: "inputCommands", subject: words[0] ?? "", index: -1 });
    return commandNode({ words, program: programName(words[0] ?? ""), options: parsed.options, concerns, optionNames: tableOptionNames(table) });
  };
}

const node = interpreter({
  code: ["-e", "--eval", "-p", "--print", "--inspect", "--inspect-brk", "--inspect-port", "--inspect-wait"],
  load: ["-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "--env-file-if-exists", "--experimental-config-file"],
  tuning: ["-C", "--conditions", "--input-type", "--test-reporter", "--test-name-pattern", "--stack-size", "--max-old-space-size"],
  flags: ["-v", "--version", "-h", "--help", "-c", "--check", "--test", "--enable-source-maps", "--no-warnings", "--trace-warnings", "--trace-uncaught", "--no-deprecation", "--throw-deprecation", "--experimental-strip-types", "--experimental-vm-modules", "--experimental-test-coverage"],
});
const python = interpreter({
  code: ["-c"],
  tuning: ["-W", "-X"],
  flags: ["-u", "-B", "-E", "-s", "-S", "-I", "-O", "-q", "-v", "-V", "--version", "-h", "--help", "-b", "-d"],
  module: ["-m"],
});
const perl = interpreter({
  code: ["-e", "-E", "-c", "-x", "-d"],
  load: ["-M", "-m", "-I"],
  tuning: ["-F"],
  attachedValue: ["-i", "-0", "-l"],
  flags: ["-n", "-p", "-a", "-w", "-W", "-X", "-t", "-T", "-s", "-v", "-h"],
});
const ruby = interpreter({ code: ["-e", "-x"], load: ["-r", "-I", "--require"], flags: ["-w", "-W", "-v", "--version", "-h", "--help", "-c", "-n", "-p", "-a", "-l"] });
const php = interpreter({ code: ["-r", "-B", "-R", "-F", "-E"], load: ["-c", "-d", "-z"], flags: ["-v", "-h", "-n", "-l", "-m", "-i", "-q"] });
const lua = interpreter({ code: ["-e"], load: ["-l"], flags: ["-v", "-i", "-E", "-W"] });
const inlineOnly = (code: readonly string[]) => interpreter({ code, flags: ["-h", "--help", "--version"] });

/** awk's program text can run commands (system(), |, print > file): always a card, unless a rule spells it. */
const awk: Analyzer = (words) => {
  const table = optionTable({ "-F --field-separator": { value: "required" }, "-v --assign": { value: "required" }, "-f --file": { value: "required", concern: "runsScript" } });
  const parsed = parseArguments(words, 1, table);
  const usesFile = parsed.options.some((option) => option.name === "--file");
  const programIndex = usesFile ? -1 : parsed.end;
  const concerns = [...parsed.concerns, ...outsidePositionals(words.slice(parsed.end + (usesFile ? 0 : 1)).map((word, offset) => ({ word, index: parsed.end + (usesFile ? 0 : 1) + offset })))];
  if (programIndex >= 0 && programIndex < words.length) concerns.push({ kind: "runsCode", subject: words[programIndex] ?? "", index: programIndex });
  return commandNode({ words, program: programName(words[0] ?? ""), options: parsed.options, concerns });
};

/** cmd /c and PowerShell -Command run the rest of the line as a command: read for deny rules, never approved. */
function windowsShell(commandSwitches: readonly string[]): Analyzer {
  return (words, context): CommandNode => {
    const at = words.findIndex((word, index) => index > 0 && commandSwitches.includes(word.toLowerCase()));
    const rest = at > 0 ? words.slice(at + 1) : [];
    return commandNode({
      words,
      program: programName(words[0] ?? ""),
      concerns: [{ kind: "runsCode", subject: at > 0 ? `${words[0]} ${words[at]}` : words[0] ?? "", index: Math.max(at, 0) }],
      inner: rest.length > 0 ? [{ kind: "command", node: context.analyzeWords(rest) }] : [],
    });
  };
}

/** eval runs its words, joined, as a command line: read like `sh -c`. */
const evaluate: Analyzer = (words, context) => {
  const script = words.slice(1).join(" ");
  return commandNode({ words, program: "eval", passThrough: script !== "", inner: script === "" ? [] : [{ kind: "line", line: context.analyzeLine(script) }] });
};

/** `. file` and `source file` run a script in the shell itself. */
const source: Analyzer = (words) => commandNode({ words, program: programName(words[0] ?? ""), concerns: words.length > 1 ? scriptFile(words, 1) : [] });

/** busybox and toybox run the applet named by their first word. */
const multiCall: Analyzer = (words, context) => {
  const rest = words.slice(1);
  return commandNode({ words, program: programName(words[0] ?? ""), passThrough: rest.length > 0, inner: rest.length > 0 ? [{ kind: "command", node: context.analyzeWords(rest) }] : [] });
};

export const interpreterAnalyzers: ReadonlyMap<string, Analyzer> = new Map<string, Analyzer>([
  // fish is not here: its syntax is not POSIX, so its scripts are not read (a rule covers only what it spells out).
  ...["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"].map((name) => [name, shell] as const),
  ["node", node],
  ["nodejs", node],
  ...["python", "python2", "python3", "pypy", "pypy3", "py"].map((name) => [name, python] as const),
  ["perl", perl],
  ["ruby", ruby],
  ["php", php],
  ["lua", lua],
  ["luajit", lua],
  ["rscript", inlineOnly(["-e"])],
  ["osascript", inlineOnly(["-e"])],
  ...["awk", "gawk", "mawk", "nawk"].map((name) => [name, awk] as const),
  ["cmd", windowsShell(["/c", "/k", "/r"])],
  ["powershell", windowsShell(["-c", "-command", "-encodedcommand", "-e", "-ec", "-f", "-file"])],
  ["pwsh", windowsShell(["-c", "-command", "-encodedcommand", "-e", "-ec", "-f", "-file"])],
  ["eval", evaluate],
  ["source", source],
  [".", source],
  ["busybox", multiCall],
  ["toybox", multiCall],
]);
