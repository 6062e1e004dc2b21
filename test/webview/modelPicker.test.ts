// Issue 27: at 300 px the model picker read "Second relay (O…": the relay's name took the room and the model's
// was cut. The chosen entry now reads model first, relay second, the whole name on hover; with many models a
// finder filters them as one types (a combobox with a listbox: keyboard and screen readers know it).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { PanelState } from "../../src/panel/protocol";
import { conversationState } from "./fixtures/panelStates";
import { panelLayoutProblems } from "./support/panelLayoutProblems";
import { freshPanelPerTest } from "./support/panelTestHooks";
import type { ThemeName } from "./support/panelHarness";

const screenshots = join(__dirname, "..", "..", "test-results", "webview");
const SECOND = "Second relay (OpenRouter)";
const manyModels = ["anthropic/claude-3.5-sonnet", "anthropic/claude-3-haiku", "openai/gpt-4o", "openai/gpt-4o-mini", "google/gemini-1.5-pro", "google/gemini-flash-1.5", "meta-llama/llama-3.1-70b-instruct", "mistralai/mistral-large", "qwen/qwen-2.5-72b-instruct", "deepseek/deepseek-chat", "cohere/command-r-plus"];

function twoRelays(overrides: Partial<PanelState> = {}): PanelState {
  return {
    ...conversationState(),
    model: "anthropic/claude-3.5-sonnet",
    relay: SECOND,
    models: manyModels,
    relayModels: [
      { relay: "relay.example", models: ["relay-large", "relay-small"], unlisted: null },
      { relay: SECOND, models: manyModels, unlisted: null },
    ],
    ...overrides,
  };
}

describe("Chat panel webview: the model picker (Chromium)", function () {
  this.timeout(60_000);
  const current = freshPanelPerTest();

  const themes: ThemeName[] = ["dark", "light"];
  for (const theme of themes) {
    it(`shows the model first and the relay second at 300 px (${theme}), the whole name on hover`, async () => {
      const narrow = await current.harness().open({ width: 300, height: 600, theme });
      try {
        await narrow.sendState(twoRelays());
        const picker = narrow.page.locator(".composer-toolbar").getByRole("combobox", { name: "Model" });
        const shown = await picker.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? "");
        assert.equal(shown, `anthropic/claude-3.5-sonnet · ${SECOND}`, "model first: a narrow panel cuts the relay's name");
        const title = (await picker.getAttribute("title")) ?? "";
        assert.match(title, /^Model: anthropic\/claude-3\.5-sonnet\nRelay: Second relay \(OpenRouter\)/);
        assert.deepEqual(await narrow.page.evaluate(panelLayoutProblems), []);
        mkdirSync(screenshots, { recursive: true });
        await narrow.page.locator(".composer").screenshot({ path: join(screenshots, `model-picker-300-${theme}.png`) });
        // The finder, open, at the same width.
        await narrow.page.getByRole("button", { name: "Find a model…" }).click();
        await narrow.page.keyboard.type("gpt");
        await narrow.page.screenshot({ path: join(screenshots, `model-finder-300-${theme}.png`) });
        assert.deepEqual(await narrow.page.evaluate(panelLayoutProblems), []);
      } finally {
        await narrow.page.close();
      }
    });
  }

  it("filters many models as one types, moves with the arrow keys and picks with Enter", async () => {
    const panel = current.panel();
    await panel.sendState(twoRelays({ busy: true }));
    await panel.clearPosted();
    const open = panel.page.getByRole("button", { name: "Find a model…" });
    await open.click();
    const input = panel.page.getByRole("combobox", { name: "Find a model" });
    assert.equal(await panel.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Find a model", "the box takes the focus");
    const listbox = panel.page.getByRole("listbox", { name: "Models" });
    assert.equal(await input.getAttribute("aria-controls"), await listbox.getAttribute("id"));
    assert.equal(await listbox.getByRole("option").count(), manyModels.length + 2, "every relay's models");
    await panel.page.keyboard.type("4o");
    const options = listbox.getByRole("option");
    assert.deepEqual(await options.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("aria-label"))), [`openai/gpt-4o · ${SECOND}`, `openai/gpt-4o-mini · ${SECOND}`]);
    assert.equal(await panel.page.locator(".model-finder-count").textContent(), "2 models");
    await panel.page.keyboard.press("ArrowDown");
    assert.equal(await input.getAttribute("aria-activedescendant"), await options.nth(1).getAttribute("id"));
    assert.equal(await options.nth(1).getAttribute("aria-selected"), "true");
    await panel.page.keyboard.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "selectModel", relay: SECOND, model: "openai/gpt-4o-mini" }]);
    assert.equal(await listbox.isVisible(), false, "closed after the pick");
    assert.equal(await panel.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Find a model…", "the focus is back on the button");
  });

  it("matches every word in any order, across model and relay; Escape closes without picking or stopping the answer", async () => {
    const panel = current.panel();
    await panel.sendState(twoRelays({ busy: true }));
    await panel.clearPosted();
    await panel.page.getByRole("button", { name: "Find a model…" }).click();
    await panel.page.keyboard.type("small relay.example");
    assert.deepEqual(await panel.page.getByRole("listbox", { name: "Models" }).getByRole("option").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("aria-label"))), ["relay-small · relay.example"]);
    await panel.page.keyboard.type(" nothing-like-this");
    assert.equal(await panel.page.getByRole("listbox", { name: "Models" }).getByRole("option").count(), 0);
    assert.equal(await panel.page.locator(".model-finder-empty").textContent(), "No models match");
    await panel.page.keyboard.press("Enter");
    await panel.page.keyboard.press("Escape");
    assert.equal(await panel.page.getByRole("listbox", { name: "Models" }).isVisible(), false);
    assert.deepEqual(await panel.posted(), [], "no pick and no stop");
    // A click picks too.
    await panel.page.getByRole("button", { name: "Find a model…" }).click();
    await panel.page.getByRole("option", { name: "relay-large · relay.example" }).click();
    assert.deepEqual(await panel.posted(), [{ type: "selectModel", relay: "relay.example", model: "relay-large" }]);
  });

  it("offers the finder only when there are many models, and one relay's picks name no relay", async () => {
    const panel = current.panel();
    await panel.sendState(conversationState());
    assert.equal(await panel.page.getByRole("button", { name: "Find a model…" }).isVisible(), false, "two models: the list is enough");
    await panel.sendState({ ...conversationState(), model: "openai/gpt-4o", models: manyModels, relayModels: [{ relay: "relay.example", models: manyModels, unlisted: null }] });
    await panel.clearPosted();
    await panel.page.getByRole("button", { name: "Find a model…" }).click();
    await panel.page.keyboard.type("haiku");
    await panel.page.keyboard.press("Enter");
    assert.deepEqual(await panel.posted(), [{ type: "selectModel", model: "anthropic/claude-3-haiku" }]);
  });
});
