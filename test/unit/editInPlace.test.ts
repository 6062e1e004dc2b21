import assert from "node:assert/strict";
import { chatSettingsWithDefaults } from "../../src/chat/chatSettings";
import { requestCost } from "../../src/chat/cost";
import { EDIT_COMMAND_PROMPT, EDIT_PROMPT_SOURCE, editInstruction, editPrompt, fenceFor } from "../../src/editInPlace/editPrompt";
import { slashCommands } from "../../src/instructions/slashCommands";
import { editReceipt } from "../../src/editInPlace/editReceipt";
import { editRegion, editedText, fittedReplacement, replacementHunks } from "../../src/editInPlace/editRegion";
import { editRequest } from "../../src/editInPlace/editRequest";
import { conversationInput, followUpPrompt } from "../../src/editInPlace/editFollowUp";
import { readReplacement } from "../../src/editInPlace/replacementText";
import { assembleInstructions } from "../../src/instructions/assembleInstructions";
import { outputTextOf } from "../../src/relay/accumulate";
import { emulatorWithClient } from "../support/emulatorClient";

// Edit in place without the editor: the region cut from a file, the request, reading the answer into the
// replacement, and the hunks the review shows. The last case sends the request to the relay emulator.

const FILE = ["import x from 'x';", "", "function add(count, step) {", "  const next = count + step;", "  log(next);", "  return count + next;", "}", "", "export { add };", ""].join("\n");

describe("Edit in place: the core", () => {
  it("cuts whole lines with the context around them, and puts a replacement back with the file's line breaks", () => {
    const region = editRegion(FILE, 2, 6, 2);
    assert.equal(region.startLine, 2);
    assert.equal(region.lineCount, 5);
    assert.equal(region.selected, "function add(count, step) {\n  const next = count + step;\n  log(next);\n  return count + next;\n}\n");
    assert.equal(region.contextBefore, "import x from 'x';\n\n");
    assert.equal(region.contextAfter, "\nexport { add };\n");
    assert.equal(editedText(region, region.selected), FILE, "the same lines back give the same file");
    // A replacement without its last line break gets the file's; a CRLF file stays CRLF.
    assert.equal(fittedReplacement(region, "a\nb"), "a\nb\n");
    const crlf = editRegion(FILE.replace(/\n/g, "\r\n"), 3, 3);
    assert.equal(fittedReplacement(crlf, "x\ny\n"), "x\r\ny\r\n");
    // The file's last line without a break stays without one; an empty answer deletes the lines.
    const last = editRegion("a\nb", 1, 1);
    assert.equal(editedText(last, "c\n"), "a\nc");
    assert.equal(editedText(editRegion(FILE, 3, 4), ""), FILE.replace("  const next = count + step;\n  log(next);\n", ""));
    // Lines out of range are clamped to the file.
    assert.equal(editRegion("one\ntwo\n", 5, 9).selected, "two\n");
  });

  it("asks for the replacement only, with the language, the lines and a fence longer than any in the file", () => {
    const region = editRegion(FILE, 3, 4, 1);
    const prompt = editPrompt(region, { path: "src/add.js", languageId: "javascript", instruction: "  rename next to total " });
    assert.match(prompt, /^File: src\/add\.js \(language: javascript\), lines 4-5\./);
    assert.match(prompt, /^Instruction: rename next to total$/m);
    assert.ok(prompt.includes("The selected lines to replace:\n```javascript\n  const next = count + step;\n  log(next);\n```"), prompt);
    assert.ok(prompt.includes("Lines before the selection (context; do not repeat them):\n```javascript\nfunction add(count, step) {\n```"), prompt);
    assert.equal(fenceFor("no fences"), "```");
    assert.equal(fenceFor("a ```` b ``` c"), "`````");
    const markdown = editPrompt(editRegion("# Title\n```sh\nls\n```\n", 1, 3), { path: "README.md", languageId: "markdown", instruction: "x" });
    assert.ok(markdown.includes("The selected lines to replace:\n````markdown\n```sh\nls\n```\n````"), markdown);
    assert.match(EDIT_COMMAND_PROMPT.text, /selected lines only, in one fenced code block/);
  });

  it("reads a `/` prompt command in the instruction as the panel does: its prompt before the edit's rule, its arguments the instruction", () => {
    const commands = slashCommands([{ name: "house-style", description: "", argumentHint: "", origin: "workspace", body: "Use tabs. $ARGUMENTS", source: ".github/prompts/house-style.prompt.md", tools: null, mode: null }]);
    assert.deepEqual(editInstruction("  rename a to b ", commands), { instruction: "rename a to b", prompt: EDIT_COMMAND_PROMPT });
    const styled = editInstruction("/house-style rename a to b", commands);
    assert.equal(styled.instruction, "rename a to b");
    assert.equal(styled.prompt.source, `${EDIT_PROMPT_SOURCE}, .github/prompts/house-style.prompt.md`);
    assert.match(styled.prompt.text, /prompt file \.github\/prompts\/house-style\.prompt\.md:\nUse tabs\. rename a to b[\s\S]*\n\nThe person selected lines/);
    assert.equal(editInstruction("/fix", commands).instruction, "/fix", "a built-in prompt alone is the instruction");
    assert.equal(editInstruction("/new thing", commands).prompt, EDIT_COMMAND_PROMPT, "the panel's actions mean nothing here");
  });

  it("reads the replacement from a fenced block wherever it is, and from an answer without one", () => {
    assert.deepEqual(readReplacement("Here is the change:\n\n```ts\nconst a = 1;\n```\nThat renames it.", true), { text: "const a = 1;\n", closed: true });
    assert.deepEqual(readReplacement("```\nx\n\ny\n```", true), { text: "x\n\ny\n", closed: true });
    assert.deepEqual(readReplacement("````md\n```sh\nls\n```\n````\n", true), { text: "```sh\nls\n```\n", closed: true }, "a longer fence holds a shorter one");
    assert.deepEqual(readReplacement("\nconst a = 1;\nconst b = 2;\n\n", true), { text: "const a = 1;\nconst b = 2;\n", closed: true }, "no fence: the whole answer");
    assert.deepEqual(readReplacement("```ts\n```", true), { text: "", closed: true }, "an empty block deletes the lines");
    assert.deepEqual(readReplacement("~~~\na\n~~~", true), { text: "a\n", closed: true });
    assert.deepEqual(readReplacement("```ts\r\na\r\n```\r\n", true), { text: "a\n", closed: true });
  });

  it("shows only whole lines of code while the answer streams, never the prose before the block", () => {
    const answer = "Here is the change:\n\n```ts\nconst a = 1;\nconst b = 2;\n```\nDone.";
    const shown = [...answer].map((_, index) => readReplacement(answer.slice(0, index + 1), false).text);
    for (const text of shown) assert.ok(["", "const a = 1;\n", "const a = 1;\nconst b = 2;\n"].includes(text), JSON.stringify(text));
    assert.equal(shown.at(-1), "const a = 1;\nconst b = 2;\n");
    assert.deepEqual(readReplacement("Here is the change:\n", false), { text: "", closed: false });
    assert.deepEqual(readReplacement("``", false), { text: "", closed: false }, "the start of a fence is not shown");
    assert.deepEqual(readReplacement("const a = 1;\nconst b", false), { text: "const a = 1;\n", closed: false }, "no fence: lines as they complete");
    assert.deepEqual(readReplacement("```ts\na\nb", true), { text: "a\nb\n", closed: true }, "a block cut off at the end is read as far as it went");
  });

  it("gives one hunk per changed part of the selection", () => {
    const region = editRegion(FILE, 2, 6);
    const hunks = replacementHunks(region, region.selected.replace(/\bcount\b/g, "total"));
    assert.deepEqual(hunks.map((hunk) => [hunk.originalStart, hunk.originalLines.length, hunk.proposedLines.length]), [[0, 2, 2], [3, 1, 1]]);
    assert.deepEqual(replacementHunks(region, region.selected), []);
  });

  it("builds the request with the panel's settings and instructions, and estimates it for the spend warning", () => {
    const instructions = assembleInstructions({ environment: { os: "Linux", shell: "bash", workspaceFolders: ["app"], date: "2026-11-27", locale: "en", tools: [] }, commandPrompt: EDIT_COMMAND_PROMPT });
    assert.equal(instructions.parts.at(-1)?.source, EDIT_PROMPT_SOURCE);
    const settings = chatSettingsWithDefaults({ model: "echo", maxOutputTokens: 500, modelSettings: { reasoningEffort: "low", temperature: 0.2 }, instructionsAs: "developer", expensiveSendThresholdTokens: 100 });
    const built = editRequest(settings, instructions, "x".repeat(400));
    assert.equal(built.request.model, "echo");
    assert.equal(built.request.max_output_tokens, 500);
    assert.deepEqual(built.request.reasoning, { effort: "low" });
    assert.equal(built.request.temperature, 0.2);
    assert.equal(built.request.tools, undefined, "no tools");
    assert.deepEqual(built.request.input[0], { type: "message", role: "developer", content: instructions.text });
    assert.equal(built.estimate.inputTokens, instructions.tokens + 100);
    assert.equal(built.estimate.needsConfirmation, true);
    assert.equal(built.estimate.purpose, "edit_in_place");
    const priced = editRequest({ ...settings, expensiveSendThresholdTokens: 0, priceOf: () => ({ inputPerMillion: 1_000_000, cachedInputPerMillion: null, outputPerMillion: 0, currency: "USD" }), spendWarningAmount: 1 }, instructions, "x");
    assert.equal(priced.estimate.needsConfirmation, true, "the money warning applies too");
    assert.equal(editRequest({ ...settings, expensiveSendThresholdTokens: 0 }, instructions, "x").estimate.needsConfirmation, false);
  });

  it("sends a follow-up as a short conversation: the first request, its pending answer in one block, then the follow-up", () => {
    const region = editRegion(FILE, 2, 6, 1);
    const first = editPrompt(region, { path: "add.js", languageId: "javascript", instruction: "rename count to total" });
    const turns = [{ prompt: first, answer: region.selected.replace(/\bcount\b/g, "total") }];
    const followUp = followUpPrompt("  shorter ", "javascript", turns);
    assert.match(followUp, /^Follow-up instruction: shorter$/m);
    assert.match(followUp, /complete new text of the originally selected lines .* in one ````javascript code block/, "a fence longer than the first request's");
    const input = conversationInput(turns, "javascript");
    assert.deepEqual(input.map((item) => ("role" in item ? item.role : "")), ["user", "assistant"]);
    assert.equal((input[1] as { content: string }).content, `\`\`\`\`javascript\n${turns[0]!.answer}\`\`\`\``);
    const instructions = { text: "Be brief.", tokens: 3 };
    const built = editRequest(chatSettingsWithDefaults({ model: "echo" }), instructions, followUp, { turns, languageId: "javascript" });
    assert.deepEqual(built.request.input.map((item) => ("role" in item ? item.role : "")), ["user", "assistant", "user"]);
    assert.ok(built.estimate.inputTokens > editRequest(chatSettingsWithDefaults({ model: "echo" }), instructions, followUp).estimate.inputTokens, "the earlier turns count in the estimate");
  });

  describe("against the relay emulator", () => {
    const relay = emulatorWithClient({}, { errorGraceMs: 300 });

    it("sends the request, reads the streamed answer into the edited file, and writes a receipt with tokens and the request id", async () => {
      const region = editRegion(FILE, 2, 6, 2);
      const instructions = assembleInstructions({ environment: { os: "Linux", shell: "bash", workspaceFolders: ["app"], date: "2026-11-27", locale: "en", tools: [] }, commandPrompt: EDIT_COMMAND_PROMPT });
      const { request } = editRequest(chatSettingsWithDefaults({ model: "echo" }), instructions, editPrompt(region, { path: "add.js", languageId: "javascript", instruction: "rename count to total" }));
      let streamed = "";
      const shown: string[] = [];
      let result = null;
      for await (const update of relay.client().stream(request)) {
        if (update.type === "end") result = update.result;
        else if (update.type === "events") {
          for (const event of update.events) if (event.type === "response.output_text.delta" && typeof event.delta === "string") streamed += event.delta;
          shown.push(readReplacement(streamed, false).text);
        }
      }
      assert.ok(result);
      assert.equal(result.outcome.kind, "completed");
      assert.equal(outputTextOf(result.snapshot.output), streamed);
      const replacement = readReplacement(streamed, true).text;
      assert.equal(editedText(region, replacement), FILE.replace(/\bcount\b/g, "total"));
      assert.ok(shown.some((text) => text !== "" && text !== replacement), "the replacement showed line by line while it streamed");
      assert.equal(replacementHunks(region, replacement).length, 2);
      const price = { inputPerMillion: 2, cachedInputPerMillion: null, outputPerMillion: 8, currency: "USD" };
      const receipt = editReceipt(result, requestCost(result, price));
      assert.match(receipt, new RegExp(`^echo · \\d+ in · \\d+ out · about \\$0\\.\\d+ · request id ${result.requestId}$`));
    });
  });
});
