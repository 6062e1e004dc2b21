// The folder `npm run demo` opens: a small project that is its own git repository, with a first commit and a
// staged change, so #Changes shows that change (not the Relay Chat repository around .vscode-test/) and /commit
// has something to describe. Written afresh on every start.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const HELLO = 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n';
const HELLO_WITH_FAREWELL = `${HELLO}\nexport function farewell(name: string): string {\n  return \`Goodbye, \${name}!\`;\n}\n`;

/** Who the demo repository's commits are by (its own config, so committing in Source Control works anywhere). */
const AUTHOR = { name: "Relay Chat demo", email: "demo@relay-chat.invalid" };

/**
 * Writes the demo project into `folder` (removing what was there) and makes it a git repository: the project
 * committed, then `farewell()` added to hello.ts and staged. Returns what it did, or why git was left out.
 */
export function writeDemoWorkspace(folder) {
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const write = (file, text) => {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    writeFileSync(path.join(folder, file), text);
  };
  write("README.md", "# Demo project\n\nA small folder for trying Relay Chat.\n\nThe model can read this file with the read_file tool, after you approve the call.\n");
  write("hello.ts", HELLO);
  // Project rules the model is told (the Rules chip lists them; ask the demo model "what are my rules?").
  write("AGENTS.md", "# Demo project rules\n\nKeep answers short. Name files with workspace-relative paths.\n");
  write(".github/instructions/typescript.instructions.md", '---\napplyTo: "**/*.ts"\n---\nTypeScript: prefer named exports and explicit return types.\n');
  // A prompt file: type / in the message box and pick /review (its text goes with that message only).
  write(
    ".github/prompts/review.prompt.md",
    "---\ndescription: Review a file for bugs and unclear names\nargument-hint: file=NAME\ntools: [read_file, find_files]\n---\nReview ${input:file:the file} for bugs, unclear names and missing tests. List each finding with its line; do not change files.\n",
  );
  try {
    const git = (...args) => execFileSync("git", args, { cwd: folder, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
    git("init", "--quiet", "--initial-branch=main");
    git("config", "user.name", AUTHOR.name);
    git("config", "user.email", AUTHOR.email);
    git("config", "commit.gpgsign", "false");
    git("add", "--all");
    git("commit", "--quiet", "--no-verify", "-m", "Demo project: a greeting, its rules and a review prompt");
    write("hello.ts", HELLO_WITH_FAREWELL);
    git("add", "hello.ts");
    return { git: true };
  } catch (error) {
    // Without git the demo still runs: #Changes and /commit then say git is missing, as they would for a user.
    rmSync(path.join(folder, ".git"), { recursive: true, force: true });
    write("hello.ts", HELLO);
    return { git: false, problem: error instanceof Error ? error.message.split("\n")[0] : String(error) };
  }
}
