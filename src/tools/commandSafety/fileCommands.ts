// Everyday programs that read, list and change files: their known options, which of them run code, write files or
// delete (find -exec, -delete, -fprint; sort --compress-program, -o; rg --pre, -z; sed scripts), and which words
// are paths that must stay inside the workspace. The table is data; an option missing from it needs a card.
import type { Analyzer, CommandNode, Concern, InnerCommand, OptionUse } from "./commandNode";
import { commandNode } from "./commandNode";
import type { OptionTable, ParseStyle } from "./optionParsing";
import { attached, flags, optionTable, outsidePositionals, parseArguments, pathValued, tableOptionNames, valued } from "./optionParsing";
import { programName, reachesOutsideWorkspace } from "./words";

/** What the words that are not options are: files and folders, data (echo's text), or a pattern and then paths. */
type PositionalMeaning = "paths" | "data" | "patternThenPaths";

function plain(table: OptionTable, meaning: PositionalMeaning, style: ParseStyle = { permute: true }, patternOptions: readonly string[] = []): Analyzer {
  return (words) => {
    const parsed = parseArguments(words, 1, table, style);
    const givenPattern = parsed.options.some((option) => patternOptions.includes(option.name));
    const paths = meaning === "data" ? [] : meaning === "patternThenPaths" && !givenPattern ? parsed.positionals.slice(1) : parsed.positionals;
    return commandNode({
      words,
      program: programName(words[0] ?? ""),
      options: parsed.options,
      positionals: parsed.positionals,
      concerns: [...parsed.concerns, ...outsidePositionals(paths)],
      optionNames: tableOptionNames(table, style),
    });
  };
}

const rmTable = optionTable(flags("-f --force, -i, -I, -r -R --recursive, -d --dir, -v --verbose, --one-file-system, --no-preserve-root"), attached("--interactive, --preserve-root"));
const rm = plain(rmTable, "paths");

const grepTable = optionTable(
  flags("-i -y --ignore-case, --no-ignore-case, -v --invert-match, -w --word-regexp, -x --line-regexp, -c --count, -l --files-with-matches, -L --files-without-match, -n --line-number, -h --no-filename, -H --with-filename, -o --only-matching, -q --quiet --silent, -s --no-messages, -r --recursive, -R --dereference-recursive, -a --text, -I, -b --byte-offset, -z --null-data, -Z --null, -E --extended-regexp, -F --fixed-strings, -G --basic-regexp, -P --perl-regexp, --line-buffered, -T --initial-tab, -U --binary"),
  valued("-e --regexp, -m --max-count, -A --after-context, -B --before-context, -C --context, --include, --exclude, --exclude-dir, --label, -d --directories, -D --devices"),
  pathValued("-f --file, --exclude-from"),
  attached("--color --colour, --binary-files"),
);
const grep = plain(grepTable, "patternThenPaths", { permute: true, numericOption: true }, ["--regexp", "--file"]);

const rgTable = optionTable(
  flags("-i --ignore-case, -s --case-sensitive, -S --smart-case, -w --word-regexp, -x --line-regexp, -F --fixed-strings, -v --invert-match, -n --line-number, -N --no-line-number, -l --files-with-matches, --files-without-match, -c --count, --count-matches, -o --only-matching, -L --follow, -u --unrestricted, -H --with-filename, -I --no-filename, -p --pretty, -a --text, -U --multiline, -P --pcre2, -q --quiet, -0 --null, --hidden, --no-ignore, --no-ignore-vcs, --no-ignore-dot, --no-ignore-parent, --files, --json, --vimgrep, --heading, --no-heading, --stats, --no-messages, --trim, --column, --passthru, --sort-files, --no-config, -., --debug"),
  valued("-e --regexp, -g --glob, --iglob, -t --type, -T --type-not, -m --max-count, -d --max-depth, -A --after-context, -B --before-context, -C --context, -r --replace, -M --max-columns, --max-filesize, --sort, --sortr, --type-add, -j --threads, --colors, -E --encoding, --context-separator, --field-match-separator, --color, --pre-glob"),
  pathValued("-f --file, --ignore-file"),
  { "--pre": { value: "required", concern: "runsCode" }, "--hostname-bin": { value: "required", concern: "runsCode" }, "-z --search-zip": { concern: "runsCode" } },
);
const rg = plain(rgTable, "patternThenPaths", { permute: true }, ["--regexp", "--file", "--files"]);

const lsTable = optionTable(
  flags("-a --all, -A --almost-all, -b --escape, -B --ignore-backups, -c, -C, -d --directory, -D --dired, -f, -F --classify, -g, -G --no-group, -h --human-readable, -H, -i --inode, -k --kibibytes, -l, -L --dereference, -m, -n --numeric-uid-gid, -N --literal, -o, -p, -q --hide-control-chars, -Q --quote-name, -r --reverse, -R --recursive, -s --size, -S, -t, -u, -U, -v, -x, -X, -Z --context, -1, --group-directories-first, --full-time, --author, --si"),
  valued("-I --ignore, -w --width, -T --tabsize, --hide, --time-style, --block-size, --indicator-style, --quoting-style, --format"),
  attached("--color, --sort, --time, --hyperlink"),
);
const catTable = optionTable(flags("-A --show-all, -b --number-nonblank, -e, -E --show-ends, -n --number, -s --squeeze-blank, -t, -T --show-tabs, -u, -v --show-nonprinting"));
const headTable = optionTable(valued("-n --lines, -c --bytes"), flags("-q --quiet --silent, -v --verbose, -z --zero-terminated"));
const tailTable = optionTable(valued("-n --lines, -c --bytes, -s --sleep-interval, --pid, --max-unchanged-stats"), flags("-q --quiet --silent, -v --verbose, -z --zero-terminated, -F, --retry"), attached("-f --follow"));
const wcTable = optionTable(flags("-l --lines, -w --words, -c --bytes, -m --chars, -L --max-line-length"), pathValued("--files0-from"), attached("--total"));
const sortTable = optionTable(
  flags("-b --ignore-leading-blanks, -d --dictionary-order, -f --ignore-case, -g --general-numeric-sort, -i --ignore-nonprinting, -M --month-sort, -h --human-numeric-sort, -n --numeric-sort, -R --random-sort, -r --reverse, -V --version-sort, -c, -C, -m --merge, -s --stable, -u --unique, -z --zero-terminated"),
  valued("-k --key, -t --field-separator, -S --buffer-size, --parallel, --batch-size"),
  attached("--sort, --check"),
  pathValued("-T --temporary-directory, --random-source, --files0-from"),
  { "-o --output": { value: "required", concern: "writesFile" }, "--compress-program": { value: "required", concern: "runsCode" } },
);
const cutTable = optionTable(valued("-b --bytes, -c --characters, -f --fields, -d --delimiter, --output-delimiter"), flags("-s --only-delimited, --complement, -z --zero-terminated, -n"));
const trTable = optionTable(flags("-c -C --complement, -d --delete, -s --squeeze-repeats, -t --truncate-set1"));
const touchTable = optionTable(flags("-a, -c --no-create, -m, -h --no-dereference"), valued("-d --date, -t"), pathValued("-r --reference"), attached("--time"));
const mkdirTable = optionTable(flags("-p --parents, -v --verbose"), valued("-m --mode"));
const copyTable = optionTable(flags("-a --archive, -f --force, -i --interactive, -n --no-clobber, -r -R --recursive, -v --verbose, -p, -u --update, -T --no-target-directory, --parents, -l --link, -s --symbolic-link, -P --no-dereference, -L --dereference"), pathValued("-t --target-directory"), attached("--preserve, --backup, --reflink"));
const treeTable = optionTable(flags("-a, -d, -f, -i, -s, -h, -C, -n, -J, -X, -p, -u, -g, -D, -F, -q, -N, -r, -t, -v, -U, -x, -l, --noreport, --gitignore, --dirsfirst, --du, --prune"), valued("-L, -I, -P, --charset, --filelimit, --sort, --timefmt"), { "-o": { value: "required", concern: "writesFile" } });
const statTable = optionTable(flags("-L --dereference, -f --file-system, -t --terse"), valued("-c --format, --printf"));
const fileTable = optionTable(flags("-b --brief, -i --mime, --mime-type, --mime-encoding, -L --dereference, -h --no-dereference, -z --uncompress, -k --keep-going, -r --raw, -s --special-files, -0 --print0, -N --no-pad"));
const duTable = optionTable(flags("-a --all, -b --bytes, -c --total, -h --human-readable, -k, -m, -s --summarize, -x --one-file-system, -L --dereference, -0 --null, --apparent-size, --inodes, --si"), valued("-d --max-depth, -t --threshold, -B --block-size, --exclude, --time-style"), attached("--time"));
const diffTable = optionTable(
  flags("-q --brief, -s --report-identical-files, -c, -u, -e --ed, -n --rcs, -y --side-by-side, -t --expand-tabs, -T --initial-tab, -l --paginate, -r --recursive, -N --new-file, --unidirectional-new-file, --no-dereference, -i --ignore-case, -E --ignore-tab-expansion, -Z --ignore-trailing-space, -b --ignore-space-change, -w --ignore-all-space, -B --ignore-blank-lines, -a --text, --strip-trailing-cr, -p --show-c-function, -d --minimal, --speed-large-files, --suppress-common-lines, --left-column, --suppress-blank-empty"),
  valued("-U, -C, -x --exclude, -W --width, -I --ignore-matching-lines, -F --show-function-line, --label, -S --starting-file, --horizon-lines, --tabsize"),
  attached("--unified, --context, --color, --palette, --normal"),
  pathValued("-X --exclude-from, --from-file, --to-file"),
);
const unameTable = optionTable(flags("-a --all, -s --kernel-name, -n --nodename, -r --kernel-release, -v --kernel-version, -m --machine, -p --processor, -i --hardware-platform, -o --operating-system"));
const idTable = optionTable(flags("-u --user, -g --group, -G --groups, -n --name, -r --real, -z --zero, -a, -Z --context"));
const dateTable = optionTable(flags("-u --utc --universal, -R --rfc-email"), valued("-d --date"), pathValued("-r --reference, -f --file"), attached("-I --iso-8601, --rfc-3339, --debug"));

/** tee writes every file it names. */
const tee: Analyzer = (words) => {
  const table = optionTable(flags("-a --append, -i --ignore-interrupts, -p"), attached("--output-error"));
  const parsed = parseArguments(words, 1, table, { permute: true });
  const concerns = [...parsed.concerns, ...parsed.positionals.map((each) => ({ kind: "writesFile" as const, subject: each.word, index: each.index }))];
  return commandNode({ words, program: "tee", options: parsed.options, positionals: parsed.positionals, concerns });
};

/** sed scripts can run commands (e) and write files (w): only printing lines (sed -n 5p, 1,20p) is understood. */
const sed: Analyzer = (words) => {
  const table = optionTable(
    flags("-n --quiet --silent, -E -r --regexp-extended, -s --separate, -z --null-data, -u --unbuffered, --posix, --debug, --sandbox"),
    valued("-e --expression, -l --line-length"),
    { "-f --file": { value: "required", concern: "runsScript" }, "-i --in-place": { value: "attached", concern: "writesFile" } },
  );
  const parsed = parseArguments(words, 1, table, { permute: true });
  const concerns: Concern[] = [...parsed.concerns];
  const expressions = parsed.options.filter((option) => option.name === "--expression");
  const scripts: { text: string; index: number }[] = expressions.map((option) => ({ text: option.value ?? "", index: option.index }));
  const first = parsed.positionals[0];
  if (scripts.length === 0 && !parsed.options.some((option) => option.name === "--file") && first !== undefined) scripts.push({ text: first.word, index: first.index });
  for (const script of scripts) if (!/^(?:[0-9]+|\$)(?:,(?:[0-9]+|\$))?p$/.test(script.text)) concerns.push({ kind: "runsCode", subject: script.text, index: script.index });
  const paths = parsed.positionals.filter((each) => !scripts.some((script) => script.index === each.index));
  return commandNode({ words, program: "sed", options: parsed.options, positionals: parsed.positionals, concerns: [...concerns, ...outsidePositionals(paths)], optionNames: tableOptionNames(table) });
};

const findValueTests = "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -size -perm -user -group -uid -gid -links -inum -mtime -mmin -atime -amin -ctime -cmin -used -maxdepth -mindepth -fstype -regextype -context -printf".split(" ");
const findPathTests = ["-newer", "-anewer", "-cnewer", "-samefile"];
const findFlags = new Set("-print -print0 -ls -prune -quit -depth -d -xdev -mount -follow -noleaf -daystart -empty -readable -writable -executable -true -false -nouser -nogroup -not -a -and -o -or ! ( ) , -ignore_readdir_race -noignore_readdir_race -warn -nowarn -help -version".split(" "));
const findRunners = ["-exec", "-execdir", "-ok", "-okdir"];
const findWriters: ReadonlyMap<string, number> = new Map([["-fls", 1], ["-fprint", 1], ["-fprint0", 1], ["-fprintf", 2]]);

/** find's expression: tests are safe, -exec runs a command (read for deny rules), -delete deletes (read as rm -r -f), -fprint writes. */
const find: Analyzer = (words, context) => {
  const concerns: Concern[] = [];
  const options: OptionUse[] = [];
  const inner: InnerCommand[] = [];
  let index = 1;
  while (index < words.length && /^-[HLP]$|^-O[0-9]$/.test(words[index] ?? "")) index++;
  if (words[index] === "-D") index += 2;
  const starts: string[] = [];
  for (; index < words.length && !/^[-(!),]/.test(words[index] ?? ""); index++) {
    starts.push(words[index] ?? "");
    if (reachesOutsideWorkspace(words[index] ?? "")) concerns.push({ kind: "outsideWorkspace", subject: words[index] ?? "", index });
  }
  for (; index < words.length; index++) {
    const word = words[index] ?? "";
    options.push({ name: word, written: word, index, value: null });
    if (findFlags.has(word)) continue;
    if (findValueTests.includes(word) || /^-newer[aBcmt][aBcmt]$/.test(word)) index++;
    else if (findPathTests.includes(word)) {
      if (reachesOutsideWorkspace(words[index + 1] ?? "")) concerns.push({ kind: "outsideWorkspace", subject: `${word} ${words[index + 1] ?? ""}`, index });
      index++;
    } else if (findRunners.includes(word)) {
      const end = words.findIndex((each, at) => at > index && (each === ";" || each === "+"));
      const command = words.slice(index + 1, end < 0 ? words.length : end);
      concerns.push({ kind: "runsCode", subject: `${word} ${command.join(" ")}`, index });
      if (command.length > 0) inner.push({ kind: "command", node: context.analyzeWords(command) });
      index = end < 0 ? words.length : end;
    } else if (word === "-delete") {
      concerns.push({ kind: "deletes", subject: word, index });
      inner.push({ kind: "command", node: rm(["rm", "-r", "-f", "--", ...(starts.length > 0 ? starts : ["."])], context) });
    } else if (findWriters.has(word)) {
      concerns.push({ kind: "writesFile", subject: `${word} ${words[index + 1] ?? ""}`, index });
      index += findWriters.get(word) ?? 1;
    } else concerns.push({ kind: "unknownOption", subject: word, index });
  }
  return commandNode({ words, program: "find", options, concerns, inner, optionNames: (written) => [written] });
};

/** Programs whose words are all data, with a few flags of their own. */
const dataOnly = (table: OptionTable = optionTable()): Analyzer => plain(table, "data", { permute: false });
const anyWords: Analyzer = (words): CommandNode => commandNode({ words, program: programName(words[0] ?? "") });

export const fileAnalyzers: ReadonlyMap<string, Analyzer> = new Map<string, Analyzer>([
  ["find", find],
  ["rm", rm],
  ["grep", grep],
  ["egrep", grep],
  ["fgrep", grep],
  ["rg", rg],
  ["ls", plain(lsTable, "paths")],
  ["cat", plain(catTable, "paths")],
  ["head", plain(headTable, "paths", { permute: true, numericOption: true })],
  ["tail", plain(tailTable, "paths", { permute: true, numericOption: true })],
  ["wc", plain(wcTable, "paths")],
  ["sort", plain(sortTable, "paths")],
  ["uniq", plain(optionTable(flags("-c --count, -d --repeated, -D, -u --unique, -i --ignore-case, -z --zero-terminated"), valued("-f --skip-fields, -s --skip-chars, -w --check-chars")), "paths")],
  ["cut", plain(cutTable, "paths")],
  ["tr", dataOnly(trTable)],
  ["sed", sed],
  ["touch", plain(touchTable, "paths")],
  ["mkdir", plain(mkdirTable, "paths")],
  ["cp", plain(copyTable, "paths")],
  ["mv", plain(copyTable, "paths")],
  ["tree", plain(treeTable, "paths")],
  ["stat", plain(statTable, "paths")],
  ["file", plain(fileTable, "paths")],
  ["du", plain(duTable, "paths")],
  ["diff", plain(diffTable, "paths")],
  ["tee", tee],
  ["echo", anyWords],
  ["printf", anyWords],
  ["true", anyWords],
  ["false", anyWords],
  [":", anyWords],
  ["pwd", plain(optionTable(flags("-L, -P")), "data")],
  ["which", dataOnly(optionTable(flags("-a")))],
  ["basename", anyWords],
  ["dirname", anyWords],
  ["whoami", plain(optionTable(), "data")],
  ["uname", plain(unameTable, "data")],
  ["id", plain(idTable, "data")],
  ["date", plain(dateTable, "data")],
]);
