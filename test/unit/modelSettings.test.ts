import * as assert from "node:assert/strict";
import { modelSettingsFor, protocolFor, readModelSettings, withModelSettings } from "../../src/chat/modelSettings";

describe("relayChat.modelSettings", () => {
  it("reads entries, skipping wrong ones with a sentence each", () => {
    const read = readModelSettings([
      { relay: "Cheap", model: "deepseek-chat", protocol: "chat", temperature: 0.2 },
      { model: "gpt-5", reasoningEffort: "low", maxOutputTokens: 4000, sendTools: false, instructions: "Be brief." },
      { model: "" },
      "nope",
      { model: "x", protocol: "grpc", temperature: 9, maxOutputTokens: 1.5, sendTools: "yes" },
    ]);
    assert.equal(read.entries.length, 3);
    assert.deepEqual(read.entries[0], { relay: "Cheap", model: "deepseek-chat", protocol: "chat", temperature: 0.2 });
    assert.deepEqual(read.entries[2], { model: "x" });
    assert.equal(read.problems.length, 6);
    assert.match(read.problems.join("\n"), /relayChat\.modelSettings\[4\]\.protocol/);
    assert.deepEqual(readModelSettings({ model: "x" }).entries, []);
    assert.equal(readModelSettings({ model: "x" }).problems.length, 1);
  });

  it("merges every-relay entries under the relay's own, field by field", () => {
    const { entries } = readModelSettings([
      { model: "m", temperature: 0.5, sendTools: false },
      { relay: "cheap", model: "m", protocol: "chat", temperature: 0.1 },
      { relay: "Other", model: "m", protocol: "responses" },
    ]);
    assert.deepEqual(modelSettingsFor(entries, "Cheap", "m"), { temperature: 0.1, sendTools: false, protocol: "chat" });
    assert.equal(protocolFor(entries, "Cheap", "m"), "chat");
    assert.equal(protocolFor(entries, "Third", "m"), "responses");
    assert.equal(protocolFor(entries, "Cheap", "M"), "responses");
  });

  it("writes one relay and model's entry, keeping others and unknown fields", () => {
    const before = [{ model: "m", note: "mine" }, { relay: "Cheap", model: "m", temperature: 1 }];
    const after = withModelSettings(before, "cheap", "m", { protocol: "chat", temperature: undefined });
    assert.deepEqual(after, [{ model: "m", note: "mine" }, { relay: "Cheap", model: "m", protocol: "chat" }]);
    assert.deepEqual(withModelSettings(after, "Cheap", "m", { protocol: undefined }), [{ model: "m", note: "mine" }]);
    assert.deepEqual(withModelSettings(undefined, "R", "n", { protocol: "chat" }), [{ relay: "R", model: "n", protocol: "chat" }]);
    assert.deepEqual(before[1], { relay: "Cheap", model: "m", temperature: 1 });
  });
});
