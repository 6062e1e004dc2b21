import assert from "node:assert/strict";
import type { ConversationSummary } from "../../src/chat/conversationSummary";
import { DEFAULT_COMPACTION_SETTINGS } from "../../src/chat/compaction";
import type { PanelInputs } from "../../src/panel/panelPresenter";
import { PanelPresenter } from "../../src/panel/panelPresenter";
import type { PanelSource, PanelSyncTimers } from "../../src/panel/panelSync";
import { jsonOf, PanelSync } from "../../src/panel/panelSync";
import type { ConversationListEntry, PanelFields, ToWebview } from "../../src/panel/protocol";
import { DEFAULT_IMAGE_LIMITS } from "../../src/panel/protocol";

// The conversation list after each turn: the presenter keeps the entries that did not change and
// PanelSync serializes each kept entry once, so a long list that gained one entry costs one entry.

function summary(id: string, updatedAt: number, title = `Chat ${id}`): ConversationSummary {
  return { id, title, createdAt: 1, updatedAt, model: "m", turnCount: 1 };
}

function inputsWith(conversations: ConversationSummary[]): PanelInputs {
  return {
    setup: { hasBaseUrl: true, hasApiKey: true, baseUrl: "https://relay.example/v1" },
    notice: null,
    model: "m",
    models: ["m"],
    modelsNote: null,
    relay: null,
    relayModels: [],
    conversations,
    conversation: null,
    busy: false,
    attachments: [],
    selectionOffer: null,
    activeFileOffer: null,
    context: null,
    compaction: DEFAULT_COMPACTION_SETTINGS,
    imageLimits: DEFAULT_IMAGE_LIMITS,
    consoleConfigured: false,
    spendEstimate: null,
    streamingTurnId: null,
    liveText: null,
  };
}

describe("panel sync: the conversation list costs what changed in it", () => {
  it("jsonOf gives JSON.stringify's text, frozen elements or not", () => {
    const frozen = Object.freeze({ id: "a", n: 1, nested: { b: [1, null] } });
    const values: unknown[] = [null, "text", 3, { a: [1, 2] }, [], [frozen], [frozen, { x: undefined, y: 2 }, null, "s", 4, [frozen]], [undefined, () => 1], [Object.freeze([1, 2])]];
    for (const value of values) assert.equal(jsonOf(value), JSON.stringify(value), JSON.stringify(value));
  });

  it("the presenter keeps unchanged entries (frozen), and an unchanged list is the same object", () => {
    const presenter = new PanelPresenter();
    const first = presenter.fields(inputsWith([summary("b", 2), summary("a", 1)])).conversations;
    const grown = presenter.fields(inputsWith([summary("c", 3), summary("b", 2), summary("a", 1)])).conversations;
    assert.deepEqual(grown.map((entry) => entry.id), ["c", "b", "a"]);
    assert.equal(grown[1], first[0], "b kept");
    assert.equal(grown[2], first[1], "a kept");
    assert.ok(grown.every((entry) => Object.isFrozen(entry)));
    const again = presenter.fields(inputsWith([summary("c", 3), summary("b", 2), summary("a", 1)])).conversations;
    assert.equal(again, grown, "an equal new list from the store is the previous array");
    const renamed = presenter.fields(inputsWith([summary("c", 3), summary("b", 4, 'Fix it\n\n<attachment kind="file" label="x.ts">\n```ts\nx\n```\n</attachment>'), summary("a", 1)])).conversations;
    assert.notEqual(renamed, grown);
    assert.deepEqual(renamed[1], { id: "b", title: "Fix it", updatedAt: 4, turnCount: 1, model: "m" }, "a changed summary gets a new entry");
    assert.equal(renamed[2], grown[2]);
    const removed = presenter.fields(inputsWith([summary("c", 3)])).conversations;
    assert.deepEqual(removed.map((entry) => entry.id), ["c"]);
  });

  it("serializes a kept entry once across patches, and posts the list only when it changed", () => {
    let serialized = 0;
    const entry = (id: string): ConversationListEntry =>
      Object.freeze({ id, title: id, updatedAt: 1, turnCount: 1, model: "m", toJSON: () => ((serialized += 1), { id, title: id, updatedAt: 1, turnCount: 1, model: "m" }) });
    const old = [entry("a"), entry("b"), entry("c")];
    let values = { busy: false, conversations: old } as unknown as PanelFields;
    const source: PanelSource = { fields: () => values, turnIds: () => [], turn: () => null, receipt: () => null, approvals: () => [] };
    const posted: ToWebview[] = [];
    const soon: Array<() => void> = [];
    const timers: PanelSyncTimers = { soon: (work) => soon.push(work), afterFrame: () => ({ cancel: () => undefined }), now: () => 0 };
    const sync = new PanelSync(source, (message) => posted.push(message), () => ({}), timers);
    sync.sendSnapshot();
    const afterSnapshot = serialized;
    assert.ok(afterSnapshot >= 3);
    const added = entry("d");
    values = { busy: true, conversations: [added, ...old] } as unknown as PanelFields;
    sync.changed();
    for (const work of soon.splice(0)) work();
    values = { busy: false, conversations: [added, ...old] } as unknown as PanelFields;
    sync.changed();
    for (const work of soon.splice(0)) work();
    assert.equal(serialized - afterSnapshot, 1, "only the new entry was serialized for the comparisons");
    const patches = posted.filter((message) => message.type === "patch");
    assert.equal(patches.length, 2);
    assert.deepEqual(patches.map((patch) => patch.type === "patch" && Object.keys((patch.changes[0] as { fields: object }).fields)), [["busy", "conversations"], ["busy"]], "an equal list is not resent");
  });
});
