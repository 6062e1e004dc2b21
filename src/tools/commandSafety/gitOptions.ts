// git's options, by subcommand, as data: which are known to be safe, which run programs, write files or read outside
// the workspace. Options missing here need a card. Sources: git 2.39's documentation (git-diff, git-log, ...) and
// Codex's command_safety (openai/codex, codex-rs/core/src/command_safety), which refuses -c, --output, --ext-diff,
// --textconv, --exec and --paginate for the same reasons.
import type { ConcernKind } from "./commandNode";
import type { OptionTable } from "./optionParsing";
import { attached, concerning, flags, optionTable, pathValued, valued } from "./optionParsing";

/** The main commands of git 2.39 (`git --list-cmds=main`) and the documented ones it installs separately. An alias cannot replace one. */
export const gitBuiltins: ReadonlySet<string> = new Set(
  (
    "add am annotate apply archimport archive bisect blame branch bugreport bundle cat-file check-attr check-ignore check-mailmap " +
    "check-ref-format checkout checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree config " +
    "count-objects credential credential-cache credential-store cvsexportcommit cvsimport cvsserver daemon describe diagnose diff " +
    "diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref " +
    "for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep gui hash-object help hook http-backend " +
    "http-fetch http-push imap-send index-pack init init-db instaweb interpret-trailers log ls-files ls-remote ls-tree mailinfo " +
    "mailsplit maintenance merge merge-base merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive " +
    "merge-recursive-ours merge-recursive-theirs merge-resolve merge-subtree merge-tree mergetool mktag mktree multi-pack-index mv " +
    "name-rev notes p4 pack-objects pack-redundant pack-refs patch-id pickaxe prune prune-packed pull push quiltimport range-diff " +
    "read-tree rebase receive-pack reflog remote remote-ext remote-fd remote-ftp remote-ftps remote-http remote-https repack replace " +
    "request-pull rerere reset restore rev-list rev-parse revert rm send-email send-pack sh-i18n sh-setup shell shortlog show " +
    "show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule subtree svn switch symbolic-ref tag " +
    "unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-pack var verify-commit verify-pack " +
    "verify-tag version web--browse whatchanged worktree write-tree"
  ).split(" "),
);

/** Commands whose whole purpose is to start other programs (a diff tool, an editor, a server, a script given to them). */
export const gitProgramStarters: ReadonlySet<string> = new Set(
  "difftool mergetool submodule bisect filter-branch daemon instaweb web--browse gui citool send-email imap-send hook shell upload-pack receive-pack upload-archive http-backend credential credential-cache credential-store p4 svn cvsimport cvsexportcommit cvsserver archimport quiltimport remote-ext remote-fd for-each-repo maintenance fsmonitor--daemon sh-setup sh-i18n".split(
    " ",
  ),
);

/** Deny rules read these as the command they do the work of: `git send-pack` pushes like `git push`. */
export const gitReadAs: ReadonlyMap<string, string> = new Map([
  ["send-pack", "push"],
  ["http-push", "push"],
  ["stage", "add"],
  ["init-db", "init"],
  ["annotate", "blame"],
  ["pickaxe", "blame"],
  ["whatchanged", "log"],
  ["fsck-objects", "fsck"],
]);

export const gitGlobalOptions: OptionTable = optionTable(
  pathValued("-C, --git-dir, --work-tree"),
  valued("--namespace"),
  flags("--no-pager -P, --no-replace-objects, --literal-pathspecs, --glob-pathspecs, --noglob-pathspecs, --icase-pathspecs, --no-optional-locks, --bare, --version -v, --html-path, --man-path, --info-path, --help -h"),
  attached("--list-cmds"),
  // Configuration can name programs git runs (core.pager, diff.external, alias.x=!cmd, core.sshCommand...).
  concerning("-c, --config-env", "runsCode", "required"),
  // --exec-path=dir picks the folder git runs its commands from; without a value it only prints it.
  concerning("--exec-path", "runsCode", "attached"),
  concerning("-p --paginate", "runsCode"),
);

const diffOptions = {
  ...flags(
    "-p -u --patch, -s --no-patch, --raw, --patch-with-raw, --patch-with-stat, --numstat, --shortstat, --summary, --name-only, --name-status, --compact-summary, --cumulative, -z, " +
      "--no-color, --no-color-moved, --no-color-moved-ws, --minimal, --patience, --histogram, --indent-heuristic, --no-indent-heuristic, -w --ignore-all-space, -b --ignore-space-change, " +
      "--ignore-space-at-eol, --ignore-blank-lines, --ignore-cr-at-eol, --find-copies-harder, -D --irreversible-delete, --pickaxe-all, --pickaxe-regex, -R, --no-relative, -a --text, " +
      "--binary, --full-index, --no-prefix, --default-prefix, --ita-invisible-in-index, --ita-visible-in-index, --exit-code, --quiet, --check, --cached, --staged, --merge-base, " +
      "--no-index, --no-ext-diff, --no-textconv, --no-renames, --rename-empty, --no-rename-empty, -W --function-context, --ours, --theirs, --base, -0, -1, -2, -3, -m, -c, --cc, " +
      "--dd, --remerge-diff, --no-diff-merges, --combined-all-paths, -t, -r, --root, --no-stat, --no-abbrev",
  ),
  ...attached("--color, --word-diff, --color-words, --color-moved, --color-moved-ws, --stat, --dirstat, --dirstat-by-file, --submodule, --ignore-submodules, --relative, --abbrev, -M --find-renames, -C --find-copies, -B --break-rewrites"),
  ...valued(
    "-U --unified, --inter-hunk-context, --diff-algorithm, --anchored, -I --ignore-matching-lines, --diff-filter, -S, -G, -l, --skip-to, --rotate-to, --src-prefix, --dst-prefix, --line-prefix, " +
      "--word-diff-regex, --ws-error-highlight, --output-indicator-new, --output-indicator-old, --output-indicator-context, --diff-merges, --stat-width, --stat-name-width, --stat-graph-width, --stat-count",
  ),
  ...pathValued("-O"),
  ...concerning("--ext-diff, --textconv", "runsCode"),
  ...concerning("--output", "writesFile", "required"),
};

const revisionOptions = {
  ...flags(
    "--follow, --all, --merges, --no-merges, --first-parent, --reverse, --oneline, --abbrev-commit, --no-abbrev-commit, --graph, --no-decorate, --relative-date, --source, --use-mailmap, " +
      "--mailmap, --no-mailmap, --log-size, --full-history, --simplify-by-decoration, --simplify-merges, --left-right, --cherry-pick, --cherry-mark, --cherry, --boundary, --topo-order, " +
      "--date-order, --author-date-order, -g --walk-reflogs, --no-notes, --all-match, --invert-grep, -i --regexp-ignore-case, -E --extended-regexp, -F --fixed-strings, -P --perl-regexp, " +
      "--basic-regexp, --do-walk, --show-linear-break, --parents, --children, --left-only, --right-only, --count, --objects, --no-walk, --full-diff, --single-worktree, --ignore-missing, --bisect",
  ),
  ...attached("--branches, --tags, --remotes, --pretty, --decorate, --expand-tabs, --notes, --ancestry-path, --no-walk"),
  ...valued("-n --max-count, --skip, --since --after, --until --before, --author, --committer, --grep, --min-parents, --max-parents, --date, --decorate-refs, --decorate-refs-exclude, --glob, --exclude, --format, --encoding, -L"),
  ...concerning("--show-signature", "runsCode"),
};

const statusOptions = optionTable(
  flags("-s --short, -b --branch, --long, -v --verbose, -z, --no-column, --ahead-behind, --no-ahead-behind, --renames, --no-renames, --show-stash"),
  attached("--porcelain, -u --untracked-files, --ignored, --ignore-submodules, --column, --find-renames"),
);

const pathspecFromFile = pathValued("--pathspec-from-file");

const fetchOptions = {
  ...flags(
    "--all, -a --append, --atomic, --unshallow, --update-shallow, --dry-run, -f --force, -k --keep, --multiple, --prefetch, -p --prune, -P --prune-tags, -n --no-tags, -t --tags, --refetch, " +
      "--no-recurse-submodules, --set-upstream, -q --quiet, -v --verbose, --progress, --no-progress, --no-write-fetch-head, --write-fetch-head, -4 --ipv4, -6 --ipv6, --show-forced-updates, --no-show-forced-updates",
  ),
  ...valued("--depth, --deepen, --shallow-since, --shallow-exclude, --refmap, -j --jobs, --filter, --negotiation-tip, -o --server-option"),
  ...attached("--recurse-submodules"),
  ...concerning("--upload-pack", "runsCode", "required"),
};

const mergeOptions = {
  ...flags("--ff, --no-ff, --ff-only, --squash, --no-squash, --commit, --no-commit, --no-edit, --stat, -n --no-stat, --signoff, --no-signoff, --autostash, --no-autostash, --verify, --no-verify, --allow-unrelated-histories, --abort, --continue, --quit, --no-rerere-autoupdate, --rerere-autoupdate, --progress, --no-progress, -q --quiet, -v --verbose"),
  ...attached("--log, --rebase"),
  ...flags("--no-rebase, --no-log"),
  ...valued("-s --strategy, -X --strategy-option, -m --message, --cleanup, --into-name"),
  ...pathValued("-F --file"),
  ...concerning("-e --edit", "runsCode"),
};

const commitOptions = optionTable(
  flags(
    "-a --all, --reset-author, --short, --branch, --porcelain, --long, -z --null, -s --signoff, --no-signoff, -n --no-verify, --verify, --allow-empty, --allow-empty-message, --no-edit, " +
      "--amend, --no-post-rewrite, -i --include, -o --only, --pathspec-file-nul, -v --verbose, -q --quiet, --dry-run, --status, --no-status, --no-gpg-sign",
  ),
  valued("-C --reuse-message, --fixup, --squash, --author, --date, -m --message, --cleanup, --trailer"),
  pathValued("-F --file, -t --template"),
  attached("-u --untracked-files"),
  concerning("-e --edit, -p --patch", "runsCode"),
  concerning("-c --reedit-message", "runsCode", "required"),
  pathspecFromFile,
);

const pushOptions = {
  ...flags(
    "--all, --branches, --mirror, --tags, --follow-tags, --no-follow-tags, --atomic, --no-atomic, -n --dry-run, --porcelain, -d --delete, -f --force, --force-if-includes, --no-force-if-includes, " +
      "-u --set-upstream, --thin, --no-thin, -q --quiet, -v --verbose, --progress, --no-progress, --prune, --no-verify, --verify, --no-signed, -4 --ipv4, -6 --ipv6, --stateless-rpc, --helper-status",
  ),
  ...attached("--force-with-lease, --recurse-submodules, --signed"),
  ...valued("-o --push-option, --repo"),
  ...concerning("--receive-pack, --exec", "runsCode", "required"),
};

/** What Relay Chat knows of a subcommand. */
export interface GitSubcommandSpec {
  readonly options: OptionTable;
  /** Only these words may come first (git stash list, git config --get): other forms need a card for this reason. */
  readonly readOnlyActions?: { readonly actions: readonly string[]; readonly otherwise: ConcernKind; readonly byOption?: readonly string[] };
}

const spec = (...groups: Parameters<typeof optionTable>): GitSubcommandSpec => ({ options: optionTable(...groups) });

const diffLike = spec(diffOptions);
const logLike = spec(diffOptions, revisionOptions);

export const gitSubcommands: ReadonlyMap<string, GitSubcommandSpec> = new Map<string, GitSubcommandSpec>([
  ["status", { options: statusOptions }],
  ["diff", diffLike],
  ["diff-tree", logLike],
  ["diff-index", diffLike],
  ["diff-files", diffLike],
  ["log", logLike],
  ["whatchanged", logLike],
  ["show", logLike],
  ["shortlog", spec(revisionOptions, flags("-n --numbered, -s --summary, -e --email, -c --committer"), valued("--group"), attached("-w"))],
  ["rev-list", logLike],
  [
    "blame",
    spec(
      flags("-b, --root, --show-stats, -f --show-name, -n --show-number, -s, -e --show-email, -w, -l, -t, -p --porcelain, --line-porcelain, --incremental, --color-lines, --color-by-age, --progress, --no-progress, --minimal, --first-parent"),
      attached("-M, -C, --abbrev"),
      valued("-L, --reverse, --ignore-rev, --date, --encoding"),
      pathValued("-S, --contents, --ignore-revs-file"),
    ),
  ],
  [
    "branch",
    spec(
      flags("-a --all, -r --remotes, -l --list, -v --verbose, -vv, --show-current, --no-color, --no-column, -i --ignore-case, --omit-empty, -d --delete, -D, -m --move, -M, -c --copy, -C, -f --force, --unset-upstream, --no-track, --create-reflog, -q --quiet"),
      attached("--merged, --no-merged, --contains, --no-contains, --color, --column, --track"),
      valued("--points-at, --sort, --format, -u --set-upstream-to"),
      concerning("--edit-description", "runsCode"),
    ),
  ],
  [
    "tag",
    spec(
      flags("-l --list, -i --ignore-case, --no-column, -f --force, -d --delete, -a --annotate, --omit-empty"),
      attached("-n, --contains, --no-contains, --merged, --no-merged, --color, --column"),
      valued("--sort, --points-at, --format, -m --message, --cleanup"),
      pathValued("-F --file"),
      concerning("-e --edit, -s --sign, -v --verify", "runsCode"),
      concerning("-u --local-user", "runsCode", "required"),
    ),
  ],
  [
    "rev-parse",
    spec(
      flags(
        "--show-toplevel, --show-prefix, --show-cdup, --git-dir, --git-common-dir, --absolute-git-dir, --is-inside-work-tree, --is-inside-git-dir, --is-bare-repository, --is-shallow-repository, " +
          "--verify, -q --quiet, --symbolic, --symbolic-full-name, --all, --branches, --tags, --remotes, --sq, --local-env-vars, --revs-only, --no-revs, --flags, --no-flags, --shared-index-path, --show-superproject-working-tree",
      ),
      attached("--abbrev-ref, --short, --show-object-format, --since, --until"),
      valued("--default, --prefix, --git-path"),
    ),
  ],
  [
    "ls-files",
    spec(
      flags("-c --cached, -d --deleted, -m --modified, -o --others, -i --ignored, -s --stage, -u --unmerged, -k --killed, -z, -t, -v, -f, --full-name, --recurse-submodules, --debug, --eol, --deduplicate, --sparse, --directory, --no-empty-directory, --error-unmatch, --exclude-standard, --resolve-undo"),
      attached("--abbrev"),
      valued("-x --exclude, --exclude-per-directory, --with-tree, --format"),
      pathValued("-X --exclude-from"),
    ),
  ],
  ["ls-tree", spec(flags("-d, -r, -t, -l --long, -z, --name-only, --name-status, --object-only, --full-name, --full-tree"), attached("--abbrev"), valued("--format"))],
  [
    "grep",
    spec(
      flags(
        "-i --ignore-case, -I, -w --word-regexp, -v --invert-match, -h, -H, --full-name, -E --extended-regexp, -G --basic-regexp, -F --fixed-strings, -P --perl-regexp, -n --line-number, -l --files-with-matches, " +
          "-L --files-without-match, -c --count, -o --only-matching, -q --quiet, -z --null, --cached, --untracked, --no-index, --recurse-submodules, --all-match, --and, --or, --not, (, ), --break, --heading, " +
          "-p --show-function, -W --function-context, --no-exclude-standard, --exclude-standard, --column, --textconv, --no-textconv, -a --text",
      ),
      attached("--color"),
      valued("--max-depth, -e, -A --after-context, -B --before-context, -C --context, --threads, -m --max-count"),
      pathValued("-f"),
      concerning("-O --open-files-in-pager", "runsCode", "attached"),
    ),
  ],
  ["describe", spec(flags("--all, --tags, --contains, --exact-match, --debug, --long, --always, --first-parent"), attached("--abbrev, --dirty, --broken"), valued("--candidates, --match, --exclude"))],
  [
    "add",
    spec(
      flags("-n --dry-run, -v --verbose, -f --force, -u --update, -A --all --no-ignore-removal, --no-all --ignore-removal, -N --intent-to-add, --refresh, --ignore-errors, --ignore-missing, --renormalize, --no-warn-embedded-repo, --sparse, --pathspec-file-nul"),
      valued("--chmod"),
      pathspecFromFile,
      concerning("-i --interactive, -p --patch, -e --edit", "runsCode"),
    ),
  ],
  ["commit", { options: commitOptions }],
  [
    "checkout",
    spec(
      flags("-q --quiet, -f --force, --ours, --theirs, --no-track, --guess, --no-guess, -l, --detach, --ignore-skip-worktree-bits, -m --merge, --ignore-other-worktrees, --overwrite-ignore, --no-overwrite-ignore, --recurse-submodules, --no-recurse-submodules, --overlay, --no-overlay, --progress, --no-progress, --pathspec-file-nul"),
      valued("-b, -B, --orphan, --conflict"),
      attached("-t --track"),
      pathspecFromFile,
      concerning("-p --patch", "runsCode"),
    ),
  ],
  [
    "switch",
    spec(
      flags("-d --detach, --guess, --no-guess, -f --force --discard-changes, -m --merge, -q --quiet, --no-track, --ignore-other-worktrees, --recurse-submodules, --no-recurse-submodules, --progress, --no-progress"),
      valued("-c --create, -C --force-create, --conflict, --orphan"),
      attached("-t --track"),
    ),
  ],
  [
    "restore",
    spec(
      flags("-W --worktree, -S --staged, -q --quiet, --progress, --no-progress, --ours, --theirs, -m --merge, --ignore-unmerged, --ignore-skip-worktree-bits, --recurse-submodules, --no-recurse-submodules, --overlay, --no-overlay, --pathspec-file-nul"),
      valued("-s --source, --conflict"),
      pathspecFromFile,
      concerning("-p --patch", "runsCode"),
    ),
  ],
  ["reset", spec(flags("--soft, --mixed, --hard, --merge, --keep, -q --quiet, -N --intent-to-add, --recurse-submodules, --no-recurse-submodules, --no-refresh, --refresh, --pathspec-file-nul"), pathspecFromFile, concerning("-p --patch", "runsCode"))],
  [
    "stash",
    {
      options: optionTable(flags("-k --keep-index, --no-keep-index, -u --include-untracked, --no-include-untracked, -a --all, -q --quiet, --index, -S --staged, --pathspec-file-nul, --only-untracked"), valued("-m --message"), pathspecFromFile, diffOptions),
      readOnlyActions: { actions: ["list", "show", "push", "save", "pop", "apply", "drop", "clear", "branch", "create", "store"], otherwise: "unknownSubcommand" },
    },
  ],
  ["fetch", spec(fetchOptions)],
  ["pull", spec(fetchOptions, mergeOptions)],
  ["push", spec(pushOptions)],
  ["send-pack", spec(pushOptions)],
  ["merge", spec(mergeOptions)],
  [
    "rebase",
    spec(
      flags(
        "--keep-base, --continue, --skip, --abort, --quit, --show-current-patch, -m --merge, --apply, --root, --autosquash, --no-autosquash, --autostash, --no-autostash, --update-refs, --no-update-refs, " +
          "-q --quiet, -v --verbose, --stat, -n --no-stat, --no-verify, --verify, -f --force-rebase --no-ff, --fork-point, --no-fork-point, --ignore-whitespace, --committer-date-is-author-date, --ignore-date --reset-author-date, --signoff, --reapply-cherry-picks, --no-reapply-cherry-picks",
      ),
      attached("--rebase-merges"),
      valued("--onto, --whitespace, -s --strategy, -X --strategy-option, --empty"),
      concerning("-i --interactive, --edit-todo", "runsCode"),
      concerning("-x --exec", "runsCode", "required"),
    ),
  ],
  ...["cherry-pick", "revert"].map(
    (name) =>
      [
        name,
        spec(
          flags("-n --no-commit, -x, -s --signoff, --ff, --allow-empty, --allow-empty-message, --keep-redundant-commits, --continue, --skip, --quit, --abort, --no-edit, --rerere-autoupdate, --no-rerere-autoupdate"),
          valued("-m --mainline, --strategy, -X --strategy-option, --cleanup"),
          concerning("-e --edit", "runsCode"),
        ),
      ] as const,
  ),
  ["rm", spec(flags("-f --force, -n --dry-run, -r, --cached, --ignore-unmatch, --sparse, -q --quiet, --pathspec-file-nul"), pathspecFromFile)],
  ["mv", spec(flags("-f --force, -k, -n --dry-run, -v --verbose, --sparse"))],
  ["init", spec(flags("-q --quiet, --bare"), valued("--object-format, -b --initial-branch"), attached("--shared"), pathValued("--separate-git-dir"), concerning("--template", "runsCode", "required"))],
  [
    "clone",
    spec(
      flags("--single-branch, --no-single-branch, --no-tags, -q --quiet, -v --verbose, --progress, --no-progress, -n --no-checkout, --bare, --mirror, -l --local, --no-local, --no-hardlinks, -s --shared, --dissociate, --sparse, --also-filter-submodules, --remote-submodules, --no-remote-submodules, --reject-shallow, --no-reject-shallow"),
      valued("-b --branch, --depth, --shallow-since, --shallow-exclude, -o --origin, --filter, -j --jobs, --server-option, --bundle-uri"),
      pathValued("--reference, --reference-if-able, --separate-git-dir"),
      attached("--recurse-submodules"),
      concerning("--template, -u --upload-pack, -c --config", "runsCode", "required"),
    ),
  ],
  [
    "config",
    {
      options: optionTable(
        flags("--get, --get-all, --get-regexp, --get-urlmatch, -l --list, --show-origin, --show-scope, --name-only, -z --null, --global, --system, --local, --worktree, --bool, --int, --bool-or-int, --path, --expiry-date, --includes, --no-includes"),
        valued("--type, --default, --blob"),
        pathValued("-f --file"),
      ),
      // Writing configuration can name programs git runs later (core.pager, alias.x=!cmd).
      readOnlyActions: { actions: [], otherwise: "runsCode", byOption: ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list"] },
    },
  ],
  ["remote", { options: optionTable(flags("-v --verbose")), readOnlyActions: { actions: ["show", "get-url"], otherwise: "unknownOption" } }],
  ["reflog", spec(revisionOptions, diffOptions)],
  ["show-ref", spec(flags("--head, --heads, --tags, -d --dereference, --verify, -q --quiet, --exists"), attached("-s --hash, --abbrev"))],
  ["cat-file", spec(flags("-t, -s, -e, -p, --mailmap, --no-mailmap, --allow-unknown-type, --follow-symlinks"), concerning("--textconv, --filters", "runsCode"))],
  ["merge-base", spec(flags("-a --all, --octopus, --independent, --is-ancestor, --fork-point"))],
  ["name-rev", spec(flags("--tags, --all, --name-only, --no-undefined, --always, --annotate-stdin"), valued("--refs, --exclude"))],
  ["for-each-ref", spec(flags("--count, --shell, --perl, --python, --tcl, --ignore-case, --omit-empty"), valued("--count, --sort, --format, --points-at, --merged, --no-merged, --contains, --no-contains, --exclude"))],
  ["count-objects", spec(flags("-v --verbose, -H --human-readable"))],
  ["version", spec(flags("--build-options"))],
  ["check-ignore", spec(flags("-q --quiet, -v --verbose, -n --non-matching, --no-index, -z"))],
  ["clean", spec(flags("-d, -f --force, -n --dry-run, -q --quiet, -x, -X"), valued("-e --exclude"), concerning("-i --interactive", "runsCode"))],
  ["worktree", { options: optionTable(flags("-v --verbose, --porcelain, -z"), attached("--expire")), readOnlyActions: { actions: ["list"], otherwise: "unknownOption" } }],
  ["help", spec(flags("-a --all, -g --guides, -c --config, --user-interfaces, --developer-interfaces, --no-external-commands, --no-aliases, --verbose"), concerning("-w --web, -m --man, -i --info", "runsCode"))],
]);
