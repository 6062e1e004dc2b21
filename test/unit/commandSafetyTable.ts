// The table of cases for run_command's approval rules (issue 37): every spelling of a denied command the review
// found or the brief names, and the allow-side lines, each with what the real program does when it runs. The test
// (commandSafety.table.test.ts) decides every row under four rule sets and runs every row for real in a scratch
// folder, so what the table says a line does is observed, not guessed.
//
// In a row, `victim` is a folder in the scratch workspace, `marker` a file a payload creates there, `{url}` the
// loopback server's address, ../remote.git the bare remote, ../outside.txt, ../secret.txt and ../other lie beside the
// workspace inside the scratch folder. Nothing a row runs touches anything outside that folder.

/** What running the line does: the effect the test observes. */
export type Effect = "push" | "publish" | "delete" | "download" | "marker" | "outsideWrite" | "outsideRead" | "nothing";

export type RuleSetName = "readme" | "project" | "tools" | "denyOnly";

export interface DenyRow {
  readonly line: string;
  readonly effect: Exclude<Effect, "nothing">;
  /** Whether it does that when run here; a string says why not (a Windows spelling on Linux, a dry run). */
  readonly here: true | string;
  /** Why no deny rule can read the command (code given to an interpreter, a misspelling git corrects): the card comes from the allow side. */
  readonly hidden?: string;
  /** Also decided as cmd.exe reads it (a Windows spelling). */
  readonly windows?: boolean;
  /** Decided only as cmd.exe reads it. */
  readonly cmdOnly?: boolean;
}

export interface AllowRow {
  readonly line: string;
  readonly effect: Effect;
  readonly here: true;
  /** The rule sets under which it runs without a card; under every other set it shows a card. */
  readonly runsUnder: readonly RuleSetName[];
}

/** Percent-encodes JavaScript for a data: URL with no character a shell reads specially. */
function dataModule(source: string): string {
  return `data:text/javascript,${encodeURIComponent(source).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

const pushModule = dataModule('import{execSync}from"node:child_process";execSync("git push")');
const markerModule = dataModule('import{writeFileSync}from"node:fs";writeFileSync("marker","")');

export const denyRows: readonly DenyRow[] = [
  // git push (36)
  { line: "git push", effect: "push", here: true },
  { line: "git 'push'", effect: "push", here: true },
  { line: 'git p""ush', effect: "push", here: true },
  { line: "git pu\\sh", effect: "push", here: true },
  { line: "git -C . push", effect: "push", here: true },
  { line: "git -c x.y=z push", effect: "push", here: true },
  { line: "command git push", effect: "push", here: true },
  { line: "env X=1 git push", effect: "push", here: true },
  { line: "X=1 git push", effect: "push", here: true },
  { line: "env -S 'git push'", effect: "push", here: true },
  { line: "env --split-string='git push'", effect: "push", here: true },
  { line: "bash -c 'git push'", effect: "push", here: true },
  { line: "bash -lc 'git push'", effect: "push", here: true },
  { line: "bash -c -- 'git push'", effect: "push", here: true },
  { line: "sh -ec 'git push'", effect: "push", here: true },
  { line: "/bin/sh -c 'git push'", effect: "push", here: true },
  { line: "eval 'git push'", effect: "push", here: true },
  { line: "git -c alias.p=push p", effect: "push", here: true },
  { line: "git -c 'alias.z=!git push' z", effect: "push", here: true },
  { line: "git -c help.autocorrect=1 psuh", effect: "push", here: true, hidden: "git corrects the misspelling to push only when it runs" },
  { line: "git send-pack ../remote.git main", effect: "push", here: true },
  { line: "/usr/bin/git push", effect: "push", here: true },
  { line: "timeout 20 git push", effect: "push", here: true },
  { line: "timeout -s KILL 20 git push", effect: "push", here: true },
  { line: "echo push | xargs git", effect: "push", here: true },
  { line: "perl -e 'system \"git push\"'", effect: "push", here: true, hidden: "code given to perl" },
  { line: `node --import=${pushModule} -e 0`, effect: "push", here: true, hidden: "code given to node as a data: module" },
  { line: "npm run x; if git push; then :; fi", effect: "push", here: true },
  { line: "for b in 1; do git push; done", effect: "push", here: true },
  { line: "while ! git push; do :; done", effect: "push", here: true },
  { line: "until ! git push; do break; done", effect: "push", here: true },
  { line: "echo $(git push)", effect: "push", here: true },
  { line: "find . -maxdepth 0 -exec git push ';'", effect: "push", here: true },
  { line: "git.exe push", effect: "push", here: "git.exe is Windows' name for git", windows: true },
  { line: "GIT push", effect: "push", here: "macOS and Windows find GIT as git; Linux does not", windows: true },
  { line: "g^it pu^sh", effect: "push", here: "cmd.exe's ^ escapes; /bin/sh keeps them", cmdOnly: true },
  // npm publish (22)
  { line: "npm publish", effect: "publish", here: true },
  { line: "npm 'publish'", effect: "publish", here: true },
  { line: "npm --prefix . publish", effect: "publish", here: true },
  { line: "npm --silent publish", effect: "publish", here: true },
  { line: "npm publ", effect: "publish", here: true },
  { line: "npm pub", effect: "publish", here: true },
  { line: "npm exec npm publish", effect: "publish", here: true },
  { line: "npm x -- npm publish", effect: "publish", here: true },
  { line: "npm exec -c 'npm publish'", effect: "publish", here: true },
  { line: "npx npm publish", effect: "publish", here: true },
  { line: "env -S 'npm publish'", effect: "publish", here: true },
  { line: "bash -lc 'npm publish'", effect: "publish", here: true },
  { line: "sh -c 'npm publish'", effect: "publish", here: true },
  { line: "timeout 20 npm publish", effect: "publish", here: true },
  { line: "command npm publish", effect: "publish", here: true },
  { line: "npm run x && npm publish", effect: "publish", here: true },
  { line: "echo publish | xargs npm", effect: "publish", here: true },
  { line: `node -e "require('child_process').execSync('npm publish')"`, effect: "publish", here: true, hidden: "code given to node" },
  { line: "npm publish --dry-run", effect: "publish", here: "a dry run stops before the upload" },
  { line: "NPM publish", effect: "publish", here: "macOS and Windows find NPM as npm; Linux does not", windows: true },
  { line: "npm.cmd publish", effect: "publish", here: "npm.cmd is Windows' name for npm", windows: true },
  { line: "/usr/bin/env npm publish", effect: "publish", here: true },
  // rm -rf (18)
  { line: "rm -rf victim", effect: "delete", here: true },
  { line: "rm -fr victim", effect: "delete", here: true },
  { line: "rm -r -f victim", effect: "delete", here: true },
  { line: "rm -f -r victim", effect: "delete", here: true },
  { line: "rm --recursive --force victim", effect: "delete", here: true },
  { line: "rm -R --force victim", effect: "delete", here: true },
  { line: "/bin/rm -rf victim", effect: "delete", here: true },
  { line: "\\rm -rf victim", effect: "delete", here: true },
  { line: "command rm -rf victim", effect: "delete", here: true },
  { line: "find victim -delete", effect: "delete", here: true },
  { line: "echo victim | xargs rm -rf", effect: "delete", here: true },
  { line: "sh -c 'rm -rf victim'", effect: "delete", here: true },
  { line: "git -c 'alias.z=!rm -rf victim' z", effect: "delete", here: true },
  { line: "timeout 20 rm -rf victim", effect: "delete", here: true },
  { line: "perl -e 'system \"rm -rf victim\"'", effect: "delete", here: true, hidden: "code given to perl" },
  { line: `node -e "require('fs').rmSync('victim',{recursive:true,force:true})"`, effect: "delete", here: true, hidden: "code given to node" },
  { line: "if rm -rf victim; then :; fi", effect: "delete", here: true },
  { line: "RM -rf victim", effect: "delete", here: "macOS and Windows find RM as rm; Linux does not", windows: true },
  // curl (10)
  { line: "curl -s {url}", effect: "download", here: true },
  { line: "/usr/bin/curl -s {url}", effect: "download", here: true },
  { line: "env curl -s {url}", effect: "download", here: true },
  { line: "bash -c 'curl -s {url}'", effect: "download", here: true },
  { line: "c''url -s {url}", effect: "download", here: true },
  { line: "timeout 20 curl -s {url}", effect: "download", here: true },
  { line: "echo {url} | xargs curl -s", effect: "download", here: true },
  { line: "command curl -s {url}", effect: "download", here: true },
  { line: "curl.exe -s {url}", effect: "download", here: "curl.exe is Windows' name for curl", windows: true },
  { line: "CURL -s {url}", effect: "download", here: "macOS and Windows find CURL as curl; Linux does not", windows: true },
];

export const allowRows: readonly AllowRow[] = [
  // The README's examples, and what they must not let through.
  { line: "npm test", effect: "nothing", here: true, runsUnder: ["readme", "project", "tools"] },
  { line: `npm test --node-options=--import=${markerModule}`, effect: "marker", here: true, runsUnder: [] },
  { line: "npm test -- --grep x", effect: "nothing", here: true, runsUnder: [] },
  { line: "npm run build", effect: "nothing", here: true, runsUnder: ["readme", "project", "tools"] },
  { line: "npm run build --script-shell=./evil.sh", effect: "marker", here: true, runsUnder: [] },
  { line: "npm ci && npm test", effect: "nothing", here: true, runsUnder: ["readme"] },
  { line: "git diff", effect: "nothing", here: true, runsUnder: ["readme", "project", "tools"] },
  { line: "git diff --stat HEAD~1", effect: "nothing", here: true, runsUnder: ["readme", "project", "tools"] },
  { line: "git status", effect: "nothing", here: true, runsUnder: ["readme", "project", "tools"] },
  { line: "git difftool -y -x 'touch marker #' HEAD~1 HEAD", effect: "marker", here: true, runsUnder: [] },
  { line: "git diff --output=../outside.txt", effect: "outsideWrite", here: true, runsUnder: [] },
  { line: "git diff --stat --output=../outside.txt HEAD~1", effect: "outsideWrite", here: true, runsUnder: [] },
  { line: "git diff --no-index ../secret.txt /dev/null", effect: "outsideRead", here: true, runsUnder: [] },
  { line: "git -C ../other log", effect: "outsideRead", here: true, runsUnder: [] },
  { line: "git -c diff.external=./evil.sh diff HEAD~1", effect: "marker", here: true, runsUnder: [] },
  { line: "env CI=1 npm test", effect: "nothing", here: true, runsUnder: ["readme", "project", "tools"] },
  { line: "NODE_OPTIONS=--require=./evil.js npm test", effect: "marker", here: true, runsUnder: [] },
  { line: "bash -lc 'git status'", effect: "nothing", here: true, runsUnder: ["readme", "project", "tools"] },
  { line: "timeout 20 npm test", effect: "nothing", here: true, runsUnder: ["readme", "project", "tools"] },
  { line: "npm test && touch marker", effect: "marker", here: true, runsUnder: [] },
  { line: "git diff > ../outside.txt", effect: "outsideWrite", here: true, runsUnder: [] },
];

const denied = ["git push", "npm publish", "rm -rf", "curl"];

/** The four rule sets of the review. `readme` is replaced by the rules in the README's example when the test reads it. */
export const ruleSets: Readonly<Record<RuleSetName, unknown>> = {
  readme: {},
  // The project's own test rules: whole programs allowed, four behaviours denied.
  project: { run_command: { allow: ["npm*", "git*", "env*", "bash*"], deny: denied.map((each) => `${each}*`) } },
  // Every program any row uses, allowed by name: a deny rule must still hold.
  tools: {
    run_command: {
      allow: ["git*", "npm*", "npx*", "env*", "bash*", "sh*", "/bin/sh*", "eval*", "command*", "timeout*", "xargs*", "echo*", "perl*", "node*", "find*", "rm*", "/bin/rm*", "/usr/bin/git*", "/usr/bin/env*", "/usr/bin/curl*", "curl*", "touch*"],
      deny: denied,
    },
  },
  denyOnly: { run_command: { deny: denied.map((each) => `${each}*`) } },
};
