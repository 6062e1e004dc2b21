import assert from "node:assert/strict";
import { PromptBroker } from "../../src/panel/turns/promptBroker";
import type { ApprovalRequest } from "../../src/tools/approvalGate";

const request = (callId: string): ApprovalRequest => ({ callId, toolName: "run_command", toolDescription: "Runs a command.", risk: "execute", argumentsJson: "{}", details: [], hiddenCharacters: [], canAllowForSession: false, alwaysAllow: null, offerReadOnlyDefault: false, deniedByRule: null });
const estimate = { inputTokens: 90_000, thresholdTokens: 50_000, needsConfirmation: true, basis: "characters" as const, purpose: "send" as const };

describe("panel prompt broker", () => {
  it("holds approvals until answered, in order, and tells what changed", async () => {
    const changes: string[] = [];
    const broker = new PromptBroker((what) => changes.push(what));
    const first = broker.askApproval(request("a"));
    const second = broker.askApproval(request("b"));
    assert.deepEqual(broker.approvals.map((view) => view.callId), ["a", "b"]);
    assert.equal(broker.answerApproval("b", "approve"), true);
    assert.equal(broker.answerApproval("b", "deny"), false, "one answer per question");
    assert.equal(await second, "approve");
    assert.equal(broker.answerApproval("a", "allow_session"), true);
    assert.equal(await first, "allow_session");
    assert.deepEqual(broker.approvals, []);
    assert.deepEqual(changes, ["approvals", "approvals", "approvals", "approvals"]);
  });

  it("answers everything 'no' on cancelAll (Stop): approvals denied, the send declined", async () => {
    const broker = new PromptBroker(() => undefined);
    const approval = broker.askApproval(request("a"));
    const spend = broker.confirmSpend(estimate);
    assert.equal(broker.spendEstimate, estimate);
    broker.cancelAll();
    assert.equal(await approval, "deny");
    assert.equal(await spend, false);
    assert.deepEqual(broker.approvals, []);
    assert.equal(broker.spendEstimate, null);
    assert.equal(broker.answerSpend(true), false, "nothing left to answer");
  });

  it("a second spend question declines the first; a repeated call id denies the earlier question", async () => {
    const broker = new PromptBroker(() => undefined);
    const firstSpend = broker.confirmSpend(estimate);
    const secondSpend = broker.confirmSpend({ ...estimate, inputTokens: 1 });
    assert.equal(await firstSpend, false);
    broker.answerSpend(true);
    assert.equal(await secondSpend, true);
    const earlier = broker.askApproval(request("same"));
    const later = broker.askApproval(request("same"));
    assert.equal(await earlier, "deny");
    assert.equal(broker.approvals.length, 1);
    broker.answerApproval("same", "approve");
    assert.equal(await later, "approve");
  });
});
