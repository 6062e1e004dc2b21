import assert from "node:assert/strict";
import type { PanelState } from "../../src/panel/protocol";
import { conversationState, panelState, receipt, turn } from "./fixtures/panelStates";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { PanelPage } from "./support/panelHarness";

describe("Chat panel webview: rendering (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();
  let panel: PanelPage;
  beforeEach(() => {
    panel = current.panel();
  });

  it("posts ready once on load and renders a conversation snapshot", async () => {
    const { page } = panel;
    assert.deepEqual(
      (await panel.posted()).filter((message) => message.type === "ready"),
      [{ type: "ready" }],
    );
    await panel.sendState(conversationState());
    const turns = page.getByRole("log").locator("article.turn");
    assert.equal(await turns.count(), 3);
    assert.equal(await turns.nth(0).locator(".user-text").textContent(), "How do I sort a Vec?");
    // Markdown rendered by the sanitizing renderer, with the code block toolbar.
    assert.equal(await turns.nth(0).locator(".answer pre > code.language-rust").textContent(), "let mut v = vec![3, 1, 2];\nv.sort();\n");
    assert.equal(await turns.nth(0).getByRole("button", { name: "Open in editor" }).count(), 1);
    // Reasoning is a collapsed note, never text.
    const reasoning = turns.nth(0).locator("details.reasoning-note");
    assert.equal(await reasoning.getAttribute("open"), null);
    assert.equal(await reasoning.locator("summary").textContent(), "Reasoning");
    // The tool call card: name, status, arguments, collapsed result.
    const toolCard = turns.nth(1).locator(".tool-card");
    assert.equal(await toolCard.locator(".tool-name").textContent(), "read_file");
    assert.equal(await toolCard.locator("pre.tool-arguments").textContent(), '{\n  "path": "Cargo.toml"\n}');
    assert.equal(await toolCard.locator("details.tool-result").getAttribute("open"), null);
    assert.equal(await toolCard.locator("details.tool-result pre").textContent(), '[dependencies]\nserde = "1"');
    // Branch navigation on the second turn only.
    assert.equal(await page.getByRole("group", { name: "Versions" }).count(), 1);
    assert.equal(await turns.nth(1).locator(".branch-position").textContent(), "2/2");
    // The title line: the conversation's title and its totals; no model row, no conversation dropdown,
    // no second "New chat" (that is the view's title action); the model picker is in the composer.
    assert.equal(await page.locator(".panel-header .title-text").textContent(), "Sorting in Rust");
    assert.equal(await page.locator(".conversation-totals .totals-visible").innerText(), "4 requests · 4.8K in · 1.4K out");
    assert.match((await page.locator(".conversation-totals").getAttribute("title")) ?? "", /4 requests, 4,800 input tokens \(1,024 cached\), 1,380 output tokens/);
    assert.equal(await page.locator(".composer-toolbar").getByRole("combobox", { name: "Model" }).inputValue(), "relay-large");
    assert.equal(await page.getByText("A listed model may still lack a feature.").count(), 0, "the model note is the picker's tooltip");
    assert.equal(await page.getByRole("button", { name: "New chat", exact: true }).count(), 0);
    const log = page.getByRole("log");
    assert.equal(await log.getAttribute("aria-live"), "polite");
    assert.equal(await log.getAttribute("aria-relevant"), "additions");
  });

  it("shows one quiet Turn details line per turn that expands to each request", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    const regions = page.getByRole("region", { name: "Turn details" });
    assert.equal(await regions.count(), 3);
    const first = (await regions.nth(0).innerText()) ?? "";
    for (const expected of ["completed", "req_first", "1.2K in · 345 out", "2.3 s"]) {
      assert.ok(first.includes(expected), `${JSON.stringify(expected)} in ${JSON.stringify(first)}`);
    }
    // Collapsed: one line, no per-request facts until expanded.
    const second = regions.nth(1);
    assert.equal(await second.locator(".receipt-details").isVisible(), false);
    assert.equal(await page.locator(".receipt-details *").count(), 0, "the details are built when first shown");
    assert.match(await second.innerText(), /2 requests.*req_tool_2/s);
    const toggle = second.getByRole("button", { name: "Show request details" });
    assert.equal(await toggle.getAttribute("aria-expanded"), "false");
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-expanded"), "true");
    const details = await second.locator(".receipt-details").innerText();
    for (const expected of ["Request 1 of 2: your message", "Request 2 of 2: after tool results", "1,200 tokens · 1,024 cached", "345 tokens · 64 reasoning", "2.3 s (first byte 410 ms)", "req_tool_1", "req_tool_2", "Not shown: web_search_call"]) {
      assert.ok(details.includes(expected), `${JSON.stringify(expected)} in ${JSON.stringify(details)}`);
    }
    assert.match(await regions.nth(2).innerText(), /incomplete \(max_output_tokens\).*req_cut/s);

    await panel.clearPosted();
    await regions.nth(0).getByRole("button", { name: "Copy request id" }).click();
    await second.getByRole("button", { name: "Copy as curl" }).nth(1).click();
    assert.deepEqual(await panel.posted(), [
      { type: "copyText", text: "req_first" },
      { type: "copyCurl", turnId: "t2", receiptIndex: 1 },
    ]);
  });

  it("shows a message's Edit and Regenerate on hover without covering any of its text", async () => {
    const { page } = panel;
    const long = "Please look at the parser in src/parse.rs and tell me why the nested arrays come out flattened when they hold objects";
    await panel.sendState(panelState({ turns: [turn("h1", { userText: long }), turn("h2", { userText: "Short one" })] }));
    for (const index of [0, 1]) {
      const message = page.locator(".user-message").nth(index);
      await message.hover();
      const toolbar = await message.locator(".user-actions").boundingBox();
      assert.ok(toolbar && toolbar.width > 0);
      // Each line box of the text, as the browser laid it out.
      const lines = await message.locator(".user-text").evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return Array.from(range.getClientRects()).map((rect) => ({ left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom }));
      });
      assert.ok(lines.length > 0);
      for (const line of lines) {
        const overlaps = line.left < toolbar.x + toolbar.width && line.right > toolbar.x && line.top < toolbar.y + toolbar.height && line.bottom > toolbar.y;
        assert.ok(!overlaps, `message ${index}: a line of text at ${JSON.stringify(line)} lies under the toolbar ${JSON.stringify(toolbar)}`);
      }
    }
  });

  it("scrolls an expanded receipt into view when it opens at the bottom edge", async () => {
    const { page } = panel;
    const turns = Array.from({ length: 8 }, (_, index) => turn(`s${index}`, { receipts: [receipt({ requestId: `req_a${index}` }), receipt({ requestId: `req_b${index}` })] }));
    await panel.sendState(panelState({ turns }));
    const toggle = page.getByRole("region", { name: "Turn details" }).nth(3).getByRole("button", { name: "Show request details" });
    // The receipt line is the last thing visible: its details would open below the fold.
    await toggle.evaluate((element) => element.scrollIntoView({ block: "end" }));
    await toggle.click();
    const details = page.getByRole("region", { name: "Turn details" }).nth(3).locator(".receipt-details");
    const [detailsBox, scrollerBox] = await Promise.all([details.boundingBox(), page.locator(".scroller").boundingBox()]);
    assert.ok(detailsBox && scrollerBox);
    assert.ok(detailsBox.y + detailsBox.height <= scrollerBox.y + scrollerBox.height + 1, `details end at ${detailsBox.y + detailsBox.height}, the view at ${scrollerBox.y + scrollerBox.height}`);
  });

  it("says unknown, not 0, where the relay reported no usage, with plurals that fit", async () => {
    const { page } = panel;
    await panel.sendState(
      panelState({
        turns: [
          turn("u1", { receipts: [receipt({ usage: null, requestId: "req_u1" })] }),
          turn("u2", { receipts: [receipt({ requestId: "req_a" }), receipt({ usage: null, requestId: "req_b" })] }),
        ],
        totals: { requests: 1, inputTokens: 0, cachedTokens: 0, outputTokens: 0, requestsWithoutUsage: 1, requestsWithUsage: 0 },
      }),
    );
    const regions = page.getByRole("region", { name: "Turn details" });
    assert.match(await regions.nth(0).innerText(), /tokens unknown/);
    assert.doesNotMatch(await regions.nth(0).innerText(), /\b0 in\b/);
    assert.match(await regions.nth(1).innerText(), /1\.2K in · 345 out\s+\(\+1 request without usage\)/);
    assert.equal(await page.locator(".conversation-totals .totals-visible").innerText(), "1 request · tokens unknown");
    const tooltip = (await page.locator(".conversation-totals").getAttribute("title")) ?? "";
    assert.match(tooltip, /tokens unknown/);
    assert.doesNotMatch(tooltip, /\b0 (input|output) tokens/, "no count where none was reported");
    await regions.nth(0).getByRole("button", { name: "Show request details" }).click();
    assert.match(await regions.nth(0).locator(".receipt-details").innerText(), /Input\s+usage not reported/);
  });

  it("does not rebuild turns whose content did not change", async () => {
    const { page } = panel;
    const state = conversationState();
    await panel.sendState(state);
    await page.evaluate(() => {
      for (const node of Array.from(document.querySelectorAll(".turn, .answer, .turn-receipt, .tool-card"))) (node as HTMLElement & { __marker?: boolean }).__marker = true;
    });
    // A patch as the host sends it for a new turn: the busy flag, the new turn, the new order.
    await panel.sendPatch(
      { kind: "fields", fields: { busy: true } },
      { kind: "turn", turn: turn("t4", { streaming: true, answerText: "", outcome: "in_progress", outcomeLabel: "in progress", receipts: [] }) },
      { kind: "turnOrder", turnIds: ["t1", "t2", "t3", "t4"] },
    );
    const kept = await page.evaluate(() =>
      Array.from(document.querySelectorAll(".turn, .answer, .turn-receipt, .tool-card")).map((node) => (node as HTMLElement & { __marker?: boolean }).__marker === true),
    );
    // Three old turns with their answer, receipt line and tool card are the same nodes; t4 is new.
    assert.equal(kept.filter(Boolean).length, 3 + 3 + 3 + 1);
    assert.equal(kept.filter((value) => !value).length, 2);
  });

  it("streams deltas into the turn and ends with the DOM of a one-shot render", async () => {
    const { page } = panel;
    const answer = "# Plan\n\nFirst a list:\n\n- one\n- two with `code`\n\n```ts\nconst x = 1;\nconsole.log(x);\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\nDone, see https://example.com/done.";
    const streaming = turn("s1", { answerText: "", streaming: true, outcome: "in_progress", outcomeLabel: "in progress", receipts: [] });
    await panel.sendState(panelState({ busy: true, turns: [streaming] }));
    const answerElement = page.locator("article[data-turn-id=s1] .answer");
    await answerElement.evaluate((node) => ((node as HTMLElement & { __marker?: boolean }).__marker = true));
    // Uneven deltas, with a turn patch in the middle that carries the text so far (as the host sends it
    // when a tool call or a receipt changes the streaming turn).
    const cuts = [0, 3, 9, 30, 31, 60, 75, 90, 120, answer.length];
    for (let index = 1; index < cuts.length; index++) {
      const delta = answer.slice(cuts[index - 1], cuts[index]);
      if (index === 5) await panel.sendPatch({ kind: "turn", turn: { ...streaming, answerText: answer.slice(0, cuts[index]) } });
      else await panel.send({ type: "answerDelta", turnId: "s1", text: delta });
    }
    assert.equal(await answerElement.evaluate((node) => (node as HTMLElement & { __marker?: boolean }).__marker), true, "the streaming view survives state messages");
    assert.equal(await page.locator(".turn-state, .turn-receipt").count(), 0);
    await panel.sendPatch(
      { kind: "fields", fields: { busy: false } },
      { kind: "turn", turn: { ...streaming, answerText: answer, streaming: false, outcome: "completed", outcomeLabel: "completed", receipts: [receipt()] } },
    );
    // Highlighting loads when the first code block finishes, on its own time: compare the settled DOMs.
    await answerElement.locator("pre code.hljs").waitFor();
    const streamedHtml = await answerElement.innerHTML();
    assert.equal(await answerElement.evaluate((node) => (node as HTMLElement & { __marker?: boolean }).__marker), true, "the finished turn keeps the streamed DOM");

    // The same answer sent finished in one go, in a fresh page.
    const oneShot = await current.harness().open();
    try {
      await oneShot.sendState(panelState({ turns: [turn("s1", { answerText: answer })] }));
      const oneShotAnswer = oneShot.page.locator("article[data-turn-id=s1] .answer");
      await oneShotAnswer.locator("pre code.hljs").waitFor();
      assert.equal(streamedHtml, await oneShotAnswer.innerHTML());
    } finally {
      await oneShot.page.close();
    }
    assert.equal(await page.getByRole("region", { name: "Turn details" }).count(), 1);
    // The end is announced in the separate status region, not by re-reading the answer.
    await page.waitForFunction(() => document.querySelector(".visually-hidden[role=status]")?.textContent === "Answer complete");
    assert.equal(await answerElement.getAttribute("aria-live"), "off");
  });

  it("says what is wrong with an address that was set but cannot be used, instead of \"No relay address is set.\"", async () => {
    const { page } = panel;
    const problem = 'relayChat.baseUrl: The base URL "127.0.0.1:46035" has no http:// or https:// in front, so it cannot be used. Write it with one, for example http://127.0.0.1:46035.';
    await panel.sendState(panelState({ setup: { hasBaseUrl: false, hasApiKey: false, baseUrl: null, baseUrlProblem: problem } }));
    await page.getByText(problem).waitFor();
    assert.equal(await page.getByText("No relay address is set.").count(), 0);
    await page.getByRole("button", { name: "Set base URL" }).waitFor();
  });

  it("shows the first-run state with buttons for what is missing, and blocks sending", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ setup: { hasBaseUrl: false, hasApiKey: false, baseUrl: null } }));
    assert.equal(await page.getByText("No relay address is set.").count(), 1);
    assert.equal(await page.getByText("No API key is set.").count(), 1);
    await page.getByLabel("Message", { exact: true }).fill("hello");
    assert.equal(await page.getByRole("button", { name: "Send", exact: true }).isDisabled(), true);
    await panel.clearPosted();
    await page.getByRole("button", { name: "Set base URL" }).click();
    await page.getByRole("button", { name: "Set API key" }).click();
    await page.getByLabel("Message", { exact: true }).press("Enter");
    assert.deepEqual(await panel.posted(), [
      { type: "fix", action: "openSettings" },
      { type: "fix", action: "setApiKey" },
    ]);
    // Only the key missing: one explanation, one button; then set up: the notice goes and Send works.
    await panel.sendState(panelState({ setup: { hasBaseUrl: true, hasApiKey: false, baseUrl: "https://relay.example" } }));
    assert.equal(await page.getByText("No relay address is set.").count(), 0);
    assert.equal(await page.getByRole("button", { name: "Set base URL" }).count(), 0);
    assert.equal(await page.getByRole("button", { name: "Set API key" }).count(), 1);
    await panel.sendState(panelState());
    assert.equal(await page.locator(".setup-notice").count(), 0);
    assert.equal(await page.getByRole("button", { name: "Send", exact: true }).isDisabled(), false);
    assert.equal(await page.getByLabel("Message", { exact: true }).inputValue(), "hello", "the draft survives");
  });

  it("offers Retry and Continue only where the turn's actions say, with the billing note", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    assert.equal(await page.getByRole("button", { name: "Retry", exact: true }).count(), 1);
    assert.equal(await page.getByRole("button", { name: "Continue", exact: true }).count(), 1);
    const t3 = page.locator("article[data-turn-id=t3]");
    assert.equal(await t3.getByRole("button", { name: "Retry", exact: true }).count(), 1);
    assert.match((await t3.locator(".retry-actions").textContent()) ?? "", /sends a new request that may be billed/);
    // An answer cut at the output budget is a warning, not an error: said once, in the turn, no alert.
    assert.match((await t3.locator(".turn-state").getAttribute("class")) ?? "", /tone-warning/);
    assert.match((await t3.locator(".turn-state").textContent()) ?? "", /stopped at the output budget/);
    assert.equal(await page.getByRole("alert").count(), 0);
    await panel.clearPosted();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByRole("button", { name: "Retry", exact: true }).click();
    assert.deepEqual(await panel.posted(), [
      { type: "continue", turnId: "t3" },
      { type: "retry", turnId: "t3" },
    ]);

    // A failed turn that is not the newest: explanation shown, not an alert; fixes post `fix`.
    const failed = turn("f1", {
      outcome: "http_error",
      outcomeLabel: "HTTP 401 (invalid_api_key)",
      explanation: "The relay refused the API key.",
      fixes: ["setApiKey", "checkConnection"],
      actions: ["retry"],
    });
    await panel.sendState(panelState({ turns: [failed, turn("f2")] }));
    assert.match((await page.locator("article[data-turn-id=f1] .turn-state").getAttribute("class")) ?? "", /tone-error/);
    assert.equal(await page.getByRole("alert").count(), 0, "not the newest turn: history, not an alert");
    assert.equal(await page.getByText("The relay refused the API key.").count(), 1);
    await panel.clearPosted();
    await page.getByRole("button", { name: "Set API key" }).click();
    await page.getByRole("button", { name: "Check connection" }).click();
    assert.deepEqual(await panel.posted(), [
      { type: "fix", action: "setApiKey" },
      { type: "fix", action: "checkConnection" },
    ]);
    // Retry is offered on the newest turn only: resending an older turn would fork the conversation.
    assert.equal(await page.getByRole("button", { name: "Retry", exact: true }).count(), 0);
    await panel.sendPatch({ kind: "turnOrder", turnIds: ["f1"] });
    assert.equal(await page.getByRole("alert").count(), 1, "the newest turn's error is announced");
    await panel.clearPosted();
    await page.getByRole("button", { name: "Retry", exact: true }).click();
    assert.deepEqual(await panel.posted(), [{ type: "retry", turnId: "f1" }]);
    // Not while another turn runs.
    await panel.sendPatch({ kind: "fields", fields: { busy: true } });
    assert.equal(await page.getByRole("button", { name: "Retry", exact: true }).count(), 0);
    await panel.sendState(panelState({ turns: [turn("ok")] }));
    assert.equal(await page.getByRole("button", { name: "Retry", exact: true }).count(), 0);
    assert.equal(await page.getByRole("button", { name: "Continue", exact: true }).count(), 0);
  });

  it("shows a refusal as a refusal, in the model's words, not as an empty completed answer", async () => {
    const { page } = panel;
    await panel.sendState(panelState({ turns: [turn("r1", { answerText: "", refusal: "I can't help with that." }), turn("r2")] }));
    const refused = page.locator("article[data-turn-id=r1]");
    const note = refused.getByRole("note");
    assert.equal(await note.locator(".turn-state-heading").textContent(), "The model declined to answer");
    assert.equal(await note.locator(".turn-refusal-text").textContent(), "I can't help with that.");
    assert.equal(await page.locator("article[data-turn-id=r2] .turn-refusal").count(), 0);
    assert.equal(await page.getByRole("alert").count(), 0, "a refusal is an answer, not an error");
  });

  it("routes code block buttons and links to the host without navigating", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    const first = page.locator("article[data-turn-id=t1]");
    await panel.clearPosted();
    // The code block's toolbar shows (and takes clicks) while the pointer is over the block.
    await first.locator(".code-block").hover();
    await first.getByRole("button", { name: "Copy", exact: true }).click();
    await first.getByRole("button", { name: "Insert at cursor" }).click();
    await first.getByRole("button", { name: "Open in editor" }).click();
    await first.getByRole("link", { name: "the docs" }).click();
    await first.getByRole("link", { name: "the docs" }).press("Enter");
    const code = "let mut v = vec![3, 1, 2];\nv.sort();\n";
    const href = "https://doc.rust-lang.org/std/vec/struct.Vec.html";
    assert.deepEqual(await panel.posted(), [
      { type: "copyText", text: code },
      { type: "insertCode", code },
      { type: "openCode", code, language: "rust" },
      { type: "openLink", href },
      { type: "openLink", href },
    ]);
    assert.match(page.url(), /\/panel\.html$/);
  });

  it("ignores unknown or malformed messages and logs them to the host", async () => {
    const { page } = panel;
    await panel.sendState(conversationState());
    await panel.clearPosted();
    await panel.send({ type: "evaluate", code: "__xss.push(1)" });
    // Malformed on purpose: typed as plain records so the compiler does not match them to the protocol's members.
    const malformed: Record<string, unknown>[] = [
      { type: "answerDelta", turnId: 7, text: "x" },
      { type: "snapshot", state: "<img src=x onerror=__xss.push(1)>", strings: {} },
    ];
    for (const message of malformed) await panel.send(message);
    const posted = await panel.posted();
    assert.equal(posted.length, 3);
    for (const message of posted) {
      assert.equal(message.type, "log");
      assert.equal(message.type === "log" && message.level, "error");
    }
    // A delta for a turn that is not streaming changes nothing.
    await panel.send({ type: "answerDelta", turnId: "t1", text: " more" });
    assert.equal(await page.locator("article.turn").count(), 3);
    assert.equal((await page.locator("article[data-turn-id=t1] .answer").textContent())?.includes("more"), false);
    assert.deepEqual(await page.evaluate(() => window.__xss), []);
  });

  it("renders hostile strings as text and executes nothing", async () => {
    const { page } = panel;
    const hostile = (label: string) => `${label}<img src=x onerror=__xss.push(1)><script>__xss.push(1)</script><svg onload=__xss.push(1)>"'&`;
    const state: PanelState = panelState({
      model: hostile("model"),
      models: [hostile("model"), "plain"],
      modelsNote: hostile("note"),
      conversations: [{ id: hostile("id"), title: hostile("title"), updatedAt: 0, turnCount: 1, model: hostile("historyModel") }],
      title: hostile("heading"),
      selectionOffer: { label: hostile("selection") },
      activeFileOffer: { label: hostile("activeFile") },
      context: { estimatedTokens: 1, windowTokens: null, tokensPerImage: 765 },
      conversationId: hostile("id"),
      notice: hostile("notice"),
      turns: [
        turn("h1", {
          userText: hostile("user"),
          answerText: hostile("answer") + "\n\n[x](javascript:__xss.push(1))",
          outcome: "failed",
          outcomeLabel: hostile("outcome"),
          explanation: hostile("explanation"),
          toolCalls: [{ callId: "c", name: hostile("tool"), argumentsJson: hostile("args"), status: "rejected", output: hostile("output") }],
          receipts: [receipt({ requestId: hostile("request"), model: hostile("receiptModel"), outcomeLabel: hostile("receiptOutcome") })],
          otherItemKinds: [hostile("kind")],
        }),
      ],
      approvals: [{ callId: hostile("call"), toolName: hostile("approvalTool"), toolDescription: hostile("description"), risk: "execute", argumentsJson: hostile("approvalArgs"), canAllowForSession: true }],
      attachments: [{ id: hostile("attachment"), label: hostile("label"), kind: "file" }],
      spendWarning: { estimatedInputTokens: 1, thresholdTokens: 0, text: hostile("spend") },
    });
    await panel.sendState(state, { Send: hostile("strings"), "Turn details": hostile("region") });
    await page.waitForTimeout(200);
    assert.deepEqual(await page.evaluate(() => window.__xss), []);
    assert.equal(await page.locator("#app img, #app script, #app svg:not(.answer svg), #app iframe").count(), 0);
    assert.equal(await page.locator("[onerror], [onload]").count(), 0);
    await page.locator(".title-button").click();
    const text = (await page.locator("#app").textContent()) ?? "";
    for (const label of ["user", "explanation", "tool", "args", "output", "request", "approvalTool", "description", "approvalArgs", "label", "spend", "notice", "title", "heading", "historyModel", "selection", "activeFile"]) {
      assert.ok(text.includes(hostile(label)), `${label} shown as text`);
    }
    assert.equal(await page.locator(".model-picker").getAttribute("title"), `Model: ${hostile("model")}\n${hostile("note")}`);
    assert.equal(await page.getByLabel("Message", { exact: true }).count(), 1);
    assert.equal(await page.getByRole("button", { name: hostile("strings"), exact: true }).count(), 1);
    assert.equal(await page.getByLabel("Model", { exact: true }).inputValue(), hostile("model"));
  });
});
