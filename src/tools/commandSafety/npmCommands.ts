// Reads an npm (and npx) command: npm's configuration options (accepted anywhere on the line), its command as npm 11
// resolves it (aliases such as `t` and `x`, and unique abbreviations such as `publ`), and what the command passes on:
// a script's arguments, the command `npm exec` runs. Options that run or load code (--node-options, --script-shell,
// --call, --userconfig) and abbreviations need a card. The command list is npm 11's lib/utils/cmd-list.js.
import type { Analyzer, Concern, InnerCommand } from "./commandNode";
import { commandNode } from "./commandNode";
import { concerning, flags, optionTable, outsidePositionals, parseArguments, pathValued, tableOptionNames, valued } from "./optionParsing";

const npmCommands =
  "access adduser approve-scripts audit bugs cache ci completion config dedupe deny-scripts deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund get help help-search init install install-ci-test install-scripts install-test link ll login logout ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart root run sbom search set shrinkwrap stage star stars start stop team test token trust undeprecate uninstall unpublish unstar update version view whoami".split(
    " ",
  );

const npmAliases: Readonly<Record<string, string>> = {
  author: "owner", home: "docs", issues: "bugs", info: "view", show: "view", find: "search", add: "install", unlink: "uninstall", remove: "uninstall", rm: "uninstall", r: "uninstall",
  un: "uninstall", rb: "rebuild", list: "ls", ln: "link", create: "init", i: "install", it: "install-test", cit: "install-ci-test", u: "update", up: "update", c: "config", s: "search", se: "search",
  tst: "test", t: "test", ddp: "dedupe", v: "view", "run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test", x: "exec", why: "explain", la: "ll", verison: "version", ic: "ci",
  innit: "init", in: "install", ins: "install", inst: "install", insta: "install", instal: "install", isnt: "install", isnta: "install", isntal: "install", isntall: "install", "install-clean": "ci",
  "isntall-clean": "ci", hlep: "help", "dist-tags": "dist-tag", upgrade: "update", udpate: "update", rum: "run", sit: "install-ci-test", urn: "run", ogr: "org", "add-user": "adduser",
};

const knownNames = [...npmCommands, ...Object.keys(npmAliases)];

/** The command npm runs for a word, and whether it was an abbreviation (which a rule never covers by itself). */
export function npmCommand(word: string): { command: string; abbreviated: boolean } | null {
  const name = /[A-Z]/.test(word) ? word.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`) : word;
  if (npmCommands.includes(name)) return { command: name, abbreviated: name !== word };
  const alias = npmAliases[name];
  if (alias !== undefined) return { command: alias, abbreviated: name !== word };
  const candidates = knownNames.filter((known) => known.startsWith(name));
  const only = candidates.length === 1 ? candidates[0] : undefined;
  if (only === undefined || name === "") return null;
  return { command: npmAliases[only] ?? only, abbreviated: true };
}

/** npm's configuration options that are known to be safe, and those that run code, load code or leave the workspace. */
const npmOptions = optionTable(
  flags(
    "-s --silent, -q --quiet, -d, -dd, -ddd, --json, -l --long, -p --parseable, --no-color, -ws --workspaces, --no-workspaces, --include-workspace-root, --if-present, --ignore-scripts, --dry-run, " +
      "--audit, --no-audit, --fund, --no-fund, --offline, --prefer-offline, --prefer-online, --no-save, -S --save, -D --save-dev, -O --save-optional, --save-peer, -E --save-exact, -P --save-prod, " +
      "--production, --legacy-peer-deps, --strict-peer-deps, --foreground-scripts, --progress, --no-progress, -a --all, -f --force, -y --yes, --no, --no-package-lock, --package-lock-only, " +
      "--no-bin-links, --no-optional, --verbose, --timing, --no-update-notifier, --unicode, --no-unicode, --provenance, --no-git-tag-version, --allow-same-version, --install-links, " +
      "--prefer-dedupe, --global-style, --usage, -h, -v --version, --workspaces-update, --no-workspaces-update",
  ),
  valued("--loglevel, -w --workspace, --tag, --access, --otp, -m --message, --preid, --depth, --omit, --include, --before, --install-strategy, --color, --tag-version-prefix, --scope, --auth-type"),
  pathValued("-C --prefix, --cache, --pack-destination"),
  concerning("--node-options, --userconfig, --globalconfig, --init-module", "loadsCode", "required"),
  concerning("--script-shell, --shell, -c --call, --package, --editor, --browser, --viewer, --git, --node-gyp", "runsCode", "required"),
  concerning("-g --global, --location", "outsideWorkspace"),
);
const npmStyle = { permute: true, negation: true, wholeWordShortOptions: true } as const;

/** Commands that run a package.json script: what follows the command goes to the script. */
const scriptRunners = new Set(["test", "start", "stop", "restart", "install-test", "install-ci-test"]);
/** Commands that start an editor, a shell, a browser or a package's initialiser. */
const programStarters = new Set(["edit", "explore", "docs", "bugs", "repo"]);

export const npm: Analyzer = (words, context) => {
  const parsed = parseArguments(words, 1, npmOptions, npmStyle);
  const concerns: Concern[] = [...parsed.concerns];
  const inner: InnerCommand[] = [];
  const positionals = parsed.positionals.filter((each) => parsed.afterDoubleDash < 0 || each.index < parsed.afterDoubleDash);
  const first = positionals[0];
  if (first === undefined) return commandNode({ words, program: "npm", options: parsed.options, concerns, optionNames: tableOptionNames(npmOptions, npmStyle) });
  // An unknown option may have taken the next word as its value: read the words after it as npm's too.
  if (parsed.concerns.some((concern) => concern.kind === "unknownOption" && concern.index < first.index) && first.index + 1 < words.length) {
    inner.push({ kind: "command", node: context.analyzeWords(["npm", ...words.slice(first.index + 1)]) });
  }
  const resolved = npmCommand(first.word);
  const command = resolved?.command ?? first.word;
  if (resolved === null) concerns.push({ kind: "unknownSubcommand", subject: first.word, index: first.index });
  else if (resolved.abbreviated) concerns.push({ kind: "abbreviation", subject: first.word, index: first.index });
  const afterCommand = positionals.slice(1);
  const passedOn = parsed.afterDoubleDash < 0 ? [] : words.slice(parsed.afterDoubleDash).map((word, offset) => ({ word, index: parsed.afterDoubleDash + offset }));
  if (scriptRunners.has(command) || command === "run") {
    // `npm run build -- --watch`, `npm test x`: words for the script, which no rule can see into.
    const toScript = [...(command === "run" ? afterCommand.slice(1) : afterCommand), ...passedOn];
    concerns.push(...toScript.map((each) => ({ kind: "scriptArguments" as const, subject: each.word, index: each.index })));
  } else if (command === "exec") {
    concerns.push({ kind: "runsCode", subject: `npm ${first.word}`, index: first.index });
    const call = parsed.options.find((option) => option.name === "--call");
    const started = passedOn.length > 0 ? passedOn : afterCommand;
    if (call?.value != null) inner.push({ kind: "line", line: context.analyzeLine(call.value) });
    else if (started.length > 0) inner.push({ kind: "command", node: context.analyzeWords(started.map((each) => each.word)) });
  } else if (programStarters.has(command) || (command === "init" && afterCommand.length > 0)) {
    concerns.push({ kind: "runsCode", subject: `npm ${first.word}`, index: first.index });
  } else if ((command === "config" && !["get", "list", "ls", undefined].includes(afterCommand[0]?.word)) || command === "set" || (command === "pkg" && afterCommand[0]?.word !== "get")) {
    // npm's configuration can name programs npm runs later (script-shell, node-options); package.json holds the scripts.
    concerns.push({ kind: "runsCode", subject: `npm ${[first.word, afterCommand[0]?.word].filter(Boolean).join(" ")}`, index: first.index });
  } else if (command === "install" && afterCommand.length + passedOn.length > 0) {
    // A package the line names is downloaded and its install scripts run: code the model chose, not the project's.
    // A rule that spells the package out (`npm install left-pad`) covers it.
    concerns.push(...[...afterCommand, ...passedOn].map((each) => ({ kind: "runsCode" as const, subject: `npm ${first.word} ${each.word}`, index: each.index })));
  } else if (command === "link") {
    concerns.push({ kind: "outsideWorkspace", subject: `npm ${first.word}`, index: first.index });
  } else {
    concerns.push(...outsidePositionals([...afterCommand, ...passedOn]));
  }
  return commandNode({
    words,
    program: "npm",
    subcommand: command,
    subcommandIndex: first.index,
    options: parsed.options,
    positionals: parsed.positionals,
    concerns,
    inner,
    optionNames: tableOptionNames(npmOptions, npmStyle),
  });
};

/** npx runs a package's program, like `npm exec`: always a card; the command is read for deny rules. */
export const npx: Analyzer = (words, context) => {
  const parsed = parseArguments(words, 1, npmOptions, { ...npmStyle, permute: false });
  const call = parsed.options.find((option) => option.name === "--call");
  const started = words.slice(parsed.end);
  const inner: InnerCommand[] =
    call?.value != null ? [{ kind: "line", line: context.analyzeLine(call.value) }] : started.length > 0 ? [{ kind: "command", node: context.analyzeWords(started) }] : [];
  return commandNode({ words, program: "npx", options: parsed.options, concerns: [...parsed.concerns, { kind: "runsCode", subject: "npx", index: -1 }], inner });
};
