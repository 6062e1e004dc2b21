import * as assert from "node:assert/strict";
import { RULE_FILE_LIMIT_CHARS, assembleInstructions, sentSources } from "../../src/instructions/assembleInstructions";
import type { InstructionEnvironment } from "../../src/instructions/baseInstruction";
import { expandPromptArguments, parsePromptFile, splitArguments } from "../../src/instructions/promptFiles";
import { BUILTIN_PROMPTS, commandPrompt, findSlashCommand, slashCommands } from "../../src/instructions/slashCommands";
import { commitMessageFrom } from "../../src/panel/turns/commitMessage";

// Prompt files and slash commands without VS Code: the front matter read, the arguments put in, the
// command a message starts with found, and the prompt sent as the last part of what the model is told.

const environment: InstructionEnvironment = { os: "Linux 6.1", shell: "/bin/bash", workspaceFolders: ["app"], date: "2026-11-26", locale: "en", tools: ["read_file", "propose_edit"] };

const REVIEW = `---
description: Review the changes for security problems
argument-hint: area=NAME
tools: [read_file, search_text]
mode: Plan
---
Review \${input:area:which part} for security problems.
`;

describe("Prompt files and slash commands", () => {
  it("reads a prompt file's front matter: description, argument hint, tools, mode, and the body without it", () => {
    const file = parsePromptFile("security-review.prompt.md", REVIEW, "workspace", ".github/prompts/security-review.prompt.md");
    assert.deepEqual(file, {
      name: "security-review",
      description: "Review the changes for security problems",
      argumentHint: "area=NAME",
      tools: ["read_file", "search_text"],
      mode: "plan",
      body: "Review ${input:area:which part} for security problems.",
      origin: "workspace",
      source: ".github/prompts/security-review.prompt.md",
    });
  });

  it("takes `name` over the file name, `agent` for the mode, a tools list in YAML form, and no front matter at all", () => {
    const named = parsePromptFile("x.prompt.md", "---\nname: /tidy\nagent: ask\ntools:\n  - read_file\n---\nTidy up.", "user", "user prompts/x.prompt.md");
    assert.equal(named?.name, "tidy");
    assert.equal(named?.mode, "ask");
    assert.deepEqual(named?.tools, ["read_file"]);
    const plain = parsePromptFile("docs.prompt.md", "Write the docs.", "workspace", "docs");
    assert.deepEqual([plain?.name, plain?.description, plain?.tools, plain?.mode, plain?.body], ["docs", "", null, null, "Write the docs."]);
    assert.deepEqual(parsePromptFile("none.prompt.md", "---\ntools: []\n---\nNo tools.", "workspace", "none")?.tools, []);
  });

  it("refuses a command name that could not be typed after /", () => {
    assert.equal(parsePromptFile("x.prompt.md", "---\nname: two words\n---\nBody", "workspace", "x"), null);
  });

  it("puts the arguments in: named values, the rest of the words, $ARGUMENTS; placeholders without a value stay for the model", () => {
    assert.deepEqual(expandPromptArguments("Review ${input:area:which part}.", "area=auth"), { text: "Review auth.", substituted: true });
    assert.deepEqual(expandPromptArguments("Review ${input:area}.", "the login form"), { text: "Review the login form.", substituted: true });
    assert.deepEqual(expandPromptArguments("Make ${input:formName} with ${input:fields}.", 'formName=Signup fields="name, email"'), { text: "Make Signup with name, email.", substituted: true });
    assert.deepEqual(expandPromptArguments("Do it: $ARGUMENTS", "  now please "), { text: "Do it: now please", substituted: true });
    assert.deepEqual(expandPromptArguments("Review ${input:area}.", ""), { text: "Review ${input:area}.", substituted: false });
    assert.deepEqual(expandPromptArguments("Write the docs.", "for the parser"), { text: "Write the docs.", substituted: false });
    assert.deepEqual(splitArguments("a=1 keep  these\nlines b='two words'"), { named: new Map([["a", "1"], ["b", "two words"]]), rest: "keep these\nlines" });
    assert.equal(splitArguments("keep  as\n  typed").rest, "keep  as\n  typed");
  });

  it("lists the built-ins first, then workspace prompt files, then the person's, a name taken once", () => {
    const workspace = parsePromptFile("review.prompt.md", "Workspace review", "workspace", ".github/prompts/review.prompt.md");
    const user = parsePromptFile("review.prompt.md", "My review", "user", "user prompts/review.prompt.md");
    const mine = parsePromptFile("standup.prompt.md", "Standup notes", "user", "user prompts/standup.prompt.md");
    const commands = slashCommands([user!, mine!, workspace!]);
    assert.deepEqual(
      commands.map((command) => `${command.origin}:${command.name}`),
      ["builtin:new", "builtin:compact", "builtin:plan", "builtin:explain", "builtin:fix", "builtin:tests", "builtin:commit", "workspace:review", "user:standup"],
    );
    assert.equal(commands.find((command) => command.name === "fix")?.prompt, BUILTIN_PROMPTS.fix);
    assert.equal(commands.find((command) => command.name === "plan")?.mode, "plan");
    assert.deepEqual(commands.find((command) => command.name === "commit")?.tools, []);
  });

  it("lets a workspace fix.prompt.md stand in for the built-in /fix, saying so, and names a file the panel's own commands leave unused", () => {
    const fix = parsePromptFile("fix.prompt.md", "---\ndescription: Fix it our way\n---\nFix it the way this project fixes things.", "workspace", ".github/prompts/fix.prompt.md")!;
    const myFix = parsePromptFile("fix.prompt.md", "My own fix.", "user", "~user/fix.prompt.md")!;
    const tests = parsePromptFile("Tests.prompt.md", "Our tests.", "user", "~user/Tests.prompt.md")!;
    const commit = parsePromptFile("commit.prompt.md", "Our commit messages.", "workspace", ".github/prompts/commit.prompt.md")!;
    const plan = parsePromptFile("plan.prompt.md", "Our plans.", "workspace", ".github/prompts/plan.prompt.md")!;
    const commands = slashCommands([myFix, fix, tests, commit, plan]);
    assert.deepEqual(
      commands.map((command) => `${command.origin}:${command.name}`),
      ["builtin:new", "builtin:compact", "builtin:plan", "builtin:explain", "workspace:fix", "user:Tests", "builtin:commit"],
      "in the built-in's place, the workspace's before the person's",
    );
    const found = findSlashCommand("/fix the login", commands);
    assert.equal(found?.command.prompt, "Fix it the way this project fixes things.");
    assert.equal(found?.command.replacesBuiltin, true);
    assert.equal(found?.command.description, "Fix it our way");
    assert.equal(commandPrompt(found!.command, found!.args).source, ".github/prompts/fix.prompt.md", "What the model is told names the file");
    assert.equal(commands.find((command) => command.name === "Tests")?.description, "Write tests", "a file without a description keeps the built-in's");
    const keptCommit = commands.find((command) => command.name === "commit")!;
    assert.equal(keptCommit.origin, "builtin");
    assert.equal(keptCommit.ignoredFile, ".github/prompts/commit.prompt.md");
    assert.equal(commands.find((command) => command.name === "plan")?.ignoredFile, ".github/prompts/plan.prompt.md", "/plan switches the mode: it stays the panel's");
    assert.equal(commands.find((command) => command.name === "explain")?.ignoredFile, undefined);
  });

  it("finds the command a message starts with and its arguments; an unknown /word or a / later in the text is plain text", () => {
    const commands = slashCommands([parsePromptFile("review.prompt.md", "Review", "workspace", "r")!]);
    assert.deepEqual(findSlashCommand("/review area=auth\nand more", commands)?.args, "area=auth\nand more");
    assert.equal(findSlashCommand("  /Explain", commands)?.command.name, "explain");
    assert.equal(findSlashCommand("/unknown thing", commands), null);
    assert.equal(findSlashCommand("see /review", commands), null);
    assert.equal(findSlashCommand("/usr/bin/env is odd", commands), null);
  });

  it("sends a command's prompt as the last part of what the model is told, with its source, cut at the per-file limit", () => {
    const file = parsePromptFile("security-review.prompt.md", REVIEW, "workspace", ".github/prompts/security-review.prompt.md")!;
    const command = slashCommands([file]).find((candidate) => candidate.name === "security-review")!;
    const assembled = assembleInstructions({ environment, rules: [{ kind: "agentsMd", path: "AGENTS.md", text: "Root rule.", folder: "app" }], commandPrompt: commandPrompt(command, "area=auth") });
    const last = assembled.parts[assembled.parts.length - 1];
    assert.equal(last.kind, "prompt");
    assert.equal(last.source, ".github/prompts/security-review.prompt.md");
    assert.ok(last.text.includes("The person started this message with /security-review, the prompt file .github/prompts/security-review.prompt.md:\nReview auth for security problems."));
    assert.ok(assembled.text.endsWith("Review auth for security problems."));
    assert.ok(assembled.text.indexOf("Root rule.") < assembled.text.indexOf("Review auth"), "after the rules");
    assert.deepEqual(sentSources(assembled).slice(-2), ["AGENTS.md", ".github/prompts/security-review.prompt.md"]);

    const long = assembleInstructions({ environment, commandPrompt: { source: "big", text: "x".repeat(RULE_FILE_LIMIT_CHARS + 10) } });
    const cut = long.parts[long.parts.length - 1];
    assert.deepEqual(cut.cut, { keptChars: RULE_FILE_LIMIT_CHARS, totalChars: RULE_FILE_LIMIT_CHARS + 10 });
    assert.ok(cut.text.includes("[Relay Chat cut this prompt here"));

    const builtin = commandPrompt(slashCommands([]).find((candidate) => candidate.name === "explain")!, "the parser");
    assert.equal(builtin.source, "Relay Chat /explain prompt");
    assert.equal(builtin.text, `The person started this message with the slash command /explain:\n${BUILTIN_PROMPTS.explain}`);
  });

  it("takes a commit message out of a fenced answer", () => {
    assert.equal(commitMessageFrom("```\nFix the parser\n\nIt read past the end.\n```"), "Fix the parser\n\nIt read past the end.");
    assert.equal(commitMessageFrom("  Add /commit \n"), "Add /commit");
  });
});
