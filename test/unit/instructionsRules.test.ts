import * as assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { RULE_FILE_LIMIT_CHARS, RULES_TOTAL_LIMIT_CHARS, assembleInstructions, sentSources } from "../../src/instructions/assembleInstructions";
import { fillBaseInstruction } from "../../src/instructions/baseInstruction";
import type { InstructionEnvironment } from "../../src/instructions/baseInstruction";
import { parseFrontMatter } from "../../src/instructions/frontMatter";
import { chooseRules } from "../../src/instructions/projectRules";
import { readRulesFolder } from "../../src/instructions/rulesOnDisk";

// The project rules files read from a real folder on disk: each format, the documented order, applyTo
// matching, the settings that turn kinds and files off, and the size limits with the cut said.

const environment: InstructionEnvironment = { os: "Linux 6.1", shell: "/bin/bash", workspaceFolders: ["app"], date: "2026-11-26", locale: "zh-cn", tools: ["read_file", "propose_edit"] };

describe("Instructions: project rules files", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "relay-rules-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function write(path: string, text: string): Promise<void> {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }

  async function rulesFor(workingOn: string[], options: { disabledKinds?: Set<never | "claudeMd" | "agentsMd">; disabledFiles?: Set<string> } = {}) {
    const folder = await readRulesFolder(root, "app");
    return chooseRules([folder], { workingOn: new Map([["app", workingOn]]), ...options });
  }

  it("reads every format and sends them in the documented order", async () => {
    await write(".cursorrules", "cursor rule");
    await write(".clinerules/b.md", "cline b");
    await write(".clinerules/a.md", "cline a");
    await write(".clinerules/workflows/release.md", "not a rule");
    await write("CLAUDE.md", "claude rule");
    await write(".github/instructions/all.instructions.md", '---\napplyTo: "**"\n---\nall files rule');
    await write(".github/copilot-instructions.md", "copilot rule");
    await write("AGENTS.md", "root agents");
    await write("node_modules/lib/AGENTS.md", "a dependency's rules");
    const rules = await rulesFor([]);
    assert.deepEqual(rules.map((rule) => rule.path), ["AGENTS.md", ".github/copilot-instructions.md", ".github/instructions/all.instructions.md", "CLAUDE.md", ".clinerules/a.md", ".clinerules/b.md", ".cursorrules"]);
    assert.equal(rules[2].text, "all files rule", "the front matter is not sent");
  });

  it("takes the root AGENTS.md and the nearest one above each file worked on, root first", async () => {
    await write("AGENTS.md", "root");
    await write("packages/web/AGENTS.md", "web");
    await write("packages/web/src/deep/AGENTS.md", "deep");
    await write("packages/api/AGENTS.md", "api");
    const rules = await rulesFor(["packages/web/src/view.ts"]);
    assert.deepEqual(rules.map((rule) => rule.path), ["AGENTS.md", "packages/web/AGENTS.md"]);
    const both = await rulesFor(["packages/web/src/deep/x.ts", "packages/api/main.ts"]);
    assert.deepEqual(both.map((rule) => rule.path), ["AGENTS.md", "packages/api/AGENTS.md", "packages/web/src/deep/AGENTS.md"]);
  });

  it("sends an .instructions.md only when a file worked on matches its applyTo, and never without one", async () => {
    await write(".github/instructions/ts.instructions.md", '---\napplyTo: "**/*.ts"\n---\nTypeScript rule');
    await write(".github/instructions/docs.instructions.md", "---\napplyTo: docs/**, *.md\n---\nDocs rule");
    await write(".github/instructions/manual.instructions.md", "---\ndescription: attach by hand\n---\nManual rule");
    assert.deepEqual((await rulesFor(["src/a.ts"])).map((rule) => rule.path), [".github/instructions/ts.instructions.md"]);
    assert.deepEqual((await rulesFor(["README.md"])).map((rule) => rule.path), [".github/instructions/docs.instructions.md"]);
    assert.deepEqual(await rulesFor([]), []);
  });

  it("reads .clinerules as a single file too, and skips empty files", async () => {
    await write(".clinerules", "one file");
    await write("CLAUDE.md", "  \n");
    await write(".claude/CLAUDE.md", "claude folder");
    assert.deepEqual((await rulesFor([])).map((rule) => [rule.kind, rule.path]), [["claudeMd", ".claude/CLAUDE.md"], ["clineRules", ".clinerules"]]);
  });

  it("leaves out kinds turned off in the settings and files turned off for the conversation", async () => {
    await write("AGENTS.md", "root");
    await write("CLAUDE.md", "claude");
    await write(".cursorrules", "cursor");
    const rules = await rulesFor([], { disabledKinds: new Set(["claudeMd"]), disabledFiles: new Set(["app/.cursorrules"]) });
    assert.deepEqual(rules.map((rule) => rule.path), ["AGENTS.md"]);
  });

  it("cuts a long file and the total at the limits, and says so in the text and the part", async () => {
    await write("AGENTS.md", "a".repeat(RULE_FILE_LIMIT_CHARS + 500));
    await write("CLAUDE.md", "c".repeat(RULE_FILE_LIMIT_CHARS));
    await write(".cursorrules", "cursor");
    const assembled = assembleInstructions({ environment, rules: await rulesFor([]) });
    const [, agents, claude, cursor] = assembled.parts;
    assert.deepEqual(agents.cut, { keptChars: RULE_FILE_LIMIT_CHARS, totalChars: RULE_FILE_LIMIT_CHARS + 500 });
    assert.match(agents.text, /Relay Chat cut this file here: 16000 of 16500 characters sent/);
    assert.equal(claude.cut, undefined, "exactly the per-file limit fits");
    assert.equal(RULES_TOTAL_LIMIT_CHARS, 2 * RULE_FILE_LIMIT_CHARS);
    assert.equal(cursor.left, true, "no room is left for the third file");
    assert.equal(assembled.text.includes("## .cursorrules"), false);
    assert.deepEqual(sentSources(assembled), ["Relay Chat base instruction v2", "AGENTS.md", "CLAUDE.md"]);
  });
});

describe("Instructions: assembly", () => {
  it("fills the environment into the base instruction", () => {
    const text = fillBaseInstruction(environment);
    for (const expected of ["Operating system: Linux 6.1", "Shell: /bin/bash", "Workspace folders: app", "Date: 2026-11-26", "zh-cn", "read_file, propose_edit", "Keep or Undo", "relative to the workspace folder"]) assert.ok(text.includes(expected), expected);
    assert.equal(/\{\{\w+\}\}/.test(text), false, "no placeholder is left");
  });

  it("puts base, the person's instructions and the rules together with sources, tokens and a hash", () => {
    const assembled = assembleInstructions({
      environment,
      personInstructions: "  Answer briefly.  ",
      rules: [{ kind: "agentsMd", path: "AGENTS.md", text: "Use tabs.", folder: "app" }, { kind: "cursorRules", path: ".cursorrules", text: "No semicolons.", folder: "app" }],
    });
    assert.deepEqual(assembled.parts.map((part) => [part.kind, part.source]), [["base", "Relay Chat base instruction v2"], ["person", "relayChat.instructions"], ["agentsMd", "AGENTS.md"], ["cursorRules", ".cursorrules"]]);
    assert.ok(assembled.text.indexOf("Answer briefly.") < assembled.text.indexOf("Project rules (from"));
    assert.ok(assembled.text.indexOf("## AGENTS.md\nUse tabs.") < assembled.text.indexOf("## .cursorrules\nNo semicolons."));
    assert.equal(assembled.text.split("Project rules (from files").length, 2, "the rules heading is said once");
    assert.equal(assembled.tokens, Math.ceil(assembled.text.length / 4));
    for (const part of assembled.parts) assert.equal(part.tokens, Math.ceil(part.text.length / 4));
    assert.match(assembled.hash, /^[0-9a-f]{16}$/);
    assert.notEqual(assembleInstructions({ environment }).hash, assembled.hash);
  });

  it("names the workspace folder in sources when there are several", () => {
    const assembled = assembleInstructions({ environment, multiRoot: true, rules: [{ kind: "agentsMd", path: "AGENTS.md", text: "x", folder: "api" }] });
    assert.equal(assembled.parts[1].source, "api/AGENTS.md");
  });

  it("reads front matter strings, comma lists and YAML lists", () => {
    assert.deepEqual([...parseFrontMatter("---\napplyTo:\n  - 'src/**'\n  - \"*.ts\"\nname: x\n---\nbody").fields], [["applyTo", ["src/**", "*.ts"]], ["name", "x"]]);
    assert.deepEqual(parseFrontMatter("---\napplyTo: [a, 'b']\n---\n").fields.get("applyTo"), ["a", "b"]);
    assert.equal(parseFrontMatter("no front matter\n---\n").body, "no front matter\n---\n");
  });
});
