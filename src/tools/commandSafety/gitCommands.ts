// Reads a git command: its global options, its subcommand as git resolves it (an alias given with -c is expanded for
// deny rules; a word that is not one of git's commands may be an alias or, with help.autocorrect, a misspelling of
// any command, so it needs a card), and the subcommand's options against gitOptions.ts.
import type { Analyzer, Concern, InnerCommand, OptionUse } from "./commandNode";
import { commandNode } from "./commandNode";
import { gitBuiltins, gitGlobalOptions, gitProgramStarters, gitReadAs, gitSubcommands } from "./gitOptions";
import { outsidePositionals, parseArguments, tableOptionNames } from "./optionParsing";
import type { ParsedArguments } from "./optionParsing";

const subcommandStyle = { permute: true, negation: true, numericOption: true } as const;

export const git: Analyzer = (words, context) => {
  const global = parseArguments(words, 1, gitGlobalOptions);
  const concerns: Concern[] = [...global.concerns];
  const inner: InnerCommand[] = [];
  const subcommandIndex = global.end < words.length ? global.end : -1;
  const written = words[subcommandIndex];
  if (written === undefined) return commandNode({ words, program: "git", options: global.options, concerns, optionNames: tableOptionNames(gitGlobalOptions) });

  // An unknown global option may have taken the next word as its value: read the words after it as git's too.
  if (global.concerns.some((concern) => concern.kind === "unknownOption") && subcommandIndex + 1 < words.length) {
    inner.push({ kind: "command", node: context.analyzeWords(["git", ...words.slice(subcommandIndex + 1)]) });
  }
  const rest = words.slice(subcommandIndex + 1);
  const alias = aliasFromOptions(global.options, written);
  if (alias !== undefined && !gitBuiltins.has(written)) {
    // `git -c alias.p=push p` runs git push; `git -c 'alias.z=!rm -rf x' z` runs a shell command.
    if (alias.startsWith("!")) inner.push({ kind: "line", line: context.analyzeLine(alias.slice(1)) });
    else {
      const expanded = context.analyzeLine(alias).commands[0]?.node.words ?? [];
      inner.push({ kind: "command", node: context.analyzeWords(["git", ...expanded, ...rest]) });
    }
  }

  let parsed: ParsedArguments | null = null;
  const subcommand = gitSubcommands.get(written);
  if (!gitBuiltins.has(written)) {
    concerns.push({ kind: "unknownSubcommand", subject: written, index: subcommandIndex });
  } else if (gitProgramStarters.has(written)) {
    concerns.push({ kind: "runsCode", subject: `git ${written}`, index: subcommandIndex });
    inner.push(...startedPrograms(written, rest, context));
  } else if (subcommand === undefined) {
    // One of git's commands whose arguments Relay Chat does not know: only the words a rule spells out.
    concerns.push(...rest.map((word, offset) => ({ kind: "unknownProgram" as const, subject: `git ${written}`, index: subcommandIndex + 1 + offset })));
  } else {
    parsed = parseArguments(words, subcommandIndex + 1, subcommand.options, subcommandStyle);
    concerns.push(...parsed.concerns, ...outsidePositionals(parsed.positionals));
    const actions = subcommand.readOnlyActions;
    const first = parsed.positionals[0];
    const byOption = actions?.byOption?.some((name) => parsed?.options.some((option) => option.name === name)) ?? false;
    if (actions !== undefined && !byOption && (first === undefined ? actions.actions.length === 0 : !actions.actions.includes(first.word))) {
      concerns.push({ kind: actions.otherwise, subject: `git ${written}${first === undefined ? "" : ` ${first.word}`}`, index: first?.index ?? subcommandIndex });
    }
  }
  const readAs = gitReadAs.get(written);
  if (readAs !== undefined) inner.push({ kind: "command", node: context.analyzeWords(["git", readAs, ...rest]) });

  return commandNode({
    words,
    program: "git",
    subcommand: written,
    subcommandIndex,
    options: [...global.options, ...(parsed?.options ?? [])],
    positionals: parsed?.positionals ?? [],
    concerns,
    inner,
    optionNames: tableOptionNames(subcommand?.options ?? gitGlobalOptions, subcommandStyle),
  });
};

/** The value of `-c alias.<name>=<value>` for the subcommand, if the line sets one. */
function aliasFromOptions(options: readonly OptionUse[], name: string): string | undefined {
  const prefix = `alias.${name.toLowerCase()}=`;
  const setting = options.filter((option) => option.name === "-c" && option.value?.toLowerCase().startsWith(prefix)).pop();
  return setting?.value?.slice(prefix.length);
}

/** The commands a program-starting subcommand is given on the line, for deny rules (difftool -x, bisect run, submodule foreach). */
function startedPrograms(subcommand: string, rest: readonly string[], context: Parameters<Analyzer>[1]): InnerCommand[] {
  if (subcommand === "difftool" || subcommand === "mergetool") {
    const at = rest.findIndex((word) => word === "-x" || word === "--extcmd" || word.startsWith("--extcmd=") || /^-x./.test(word));
    if (at < 0) return [];
    const word = rest[at] ?? "";
    const script = word.startsWith("--extcmd=") ? word.slice(9) : /^-x./.test(word) ? word.slice(2) : rest[at + 1];
    return script === undefined ? [] : [{ kind: "line", line: context.analyzeLine(script) }];
  }
  if (subcommand === "bisect" && rest[0] === "run" && rest.length > 1) return [{ kind: "command", node: context.analyzeWords(rest.slice(1)) }];
  if (subcommand === "submodule") {
    const at = rest.indexOf("foreach");
    const script = rest.slice(at + 1).filter((word) => word !== "--recursive" && word !== "-q" && word !== "--quiet");
    if (at >= 0 && script.length > 0) return [{ kind: "line", line: context.analyzeLine(script.join(" ")) }];
  }
  return [];
}
