import assert from "node:assert/strict";
import { createApprovalGate, describeApprovalRequest } from "../../src/tools/approvalGate";
import type { ApprovalRequest } from "../../src/tools/approvalGate";
import { SessionAllowances, decideApproval } from "../../src/tools/approvalPolicy";
import type { ApprovalAnswer, ApprovalDecision, ApprovalPolicyState } from "../../src/tools/approvalPolicy";
import type { ReadyCall } from "../../src/tools/preparedCall";
import type { Tool, ToolRisk } from "../../src/tools/toolContract";

function tool(name: string, risk: ToolRisk): Tool {
  return { name, description: `does ${name}`, risk, parameters: { type: "object" }, run: async () => "" };
}

function readyCall(target: Tool, args: ReadyCall["args"] = {}): ReadyCall {
  return { status: "ready", call_id: "call_9", tool: target, args };
}

function policy(trusted: boolean, allowances = new SessionAllowances(), disabled: string[] = []): ApprovalPolicyState {
  return { trusted, disabledToolNames: new Set(disabled), sessionAllowances: allowances };
}

/** An allowance set that holds names regardless of risk, as a buggy caller might build it. */
class ForcedAllowances extends SessionAllowances {
  constructor(private readonly forced: readonly string[]) {
    super();
  }
  override has(toolName: string): boolean {
    return this.forced.includes(toolName);
  }
}

describe("tools: decideApproval", () => {
  const table: { risk: ToolRisk; trusted: boolean; allowed: boolean; expected: ApprovalDecision }[] = [];
  for (const risk of ["read", "write", "execute"] as const) {
    for (const trusted of [true, false]) {
      for (const allowed of [false, true]) {
        const expected: ApprovalDecision = risk === "read" && trusted && allowed ? "auto-approve" : "ask";
        table.push({ risk, trusted, allowed, expected });
      }
    }
  }

  for (const row of table) {
    it(`${row.risk} tool, ${row.trusted ? "trusted" : "untrusted"}, ${row.allowed ? "allowed for session" : "not allowed"} -> ${row.expected}`, () => {
      const subject = tool(`${row.risk}_tool`, row.risk);
      // ForcedAllowances pretends the name is allowed even where allow() would refuse, to test decideApproval on its own.
      const allowances = row.allowed ? new ForcedAllowances([subject.name]) : new SessionAllowances();
      assert.equal(decideApproval(readyCall(subject), policy(row.trusted, allowances)), row.expected);
    });
  }

  it("asks for a disabled tool even if allowed (defence in depth; prepareCall rejects it first)", () => {
    const reader = tool("reader", "read");
    const allowances = new SessionAllowances();
    allowances.allow(reader);
    assert.equal(decideApproval(readyCall(reader), policy(true, allowances, ["reader"])), "ask");
  });

  it("asks by default for everything", () => {
    for (const risk of ["read", "write", "execute"] as const) {
      assert.equal(decideApproval(readyCall(tool("t", risk)), policy(true)), "ask");
    }
  });
});

describe("tools: SessionAllowances", () => {
  it("accepts read tools and refuses write and execute tools", () => {
    const allowances = new SessionAllowances();
    assert.equal(allowances.allow(tool("reader", "read")), true);
    assert.equal(allowances.allow(tool("writer", "write")), false);
    assert.equal(allowances.allow(tool("runner", "execute")), false);
    assert.deepEqual(allowances.names(), ["reader"]);
    allowances.revoke("reader");
    assert.equal(allowances.has("reader"), false);
  });
});

describe("tools: createApprovalGate", () => {
  function scriptedUser(answers: ApprovalAnswer[]): { ask: (request: ApprovalRequest) => Promise<ApprovalAnswer>; asked: ApprovalRequest[] } {
    const asked: ApprovalRequest[] = [];
    return {
      asked,
      ask: async (request) => {
        asked.push(request);
        const answer = answers.shift();
        if (answer === undefined) throw new Error("asked more often than expected");
        return answer;
      },
    };
  }

  it("shows the tool, its risk and the exact arguments", async () => {
    const request = await describeApprovalRequest(readyCall(tool("runner", "execute"), { command: "rm -rf build" }), policy(true));
    assert.deepEqual(request, {
      callId: "call_9",
      toolName: "runner",
      toolDescription: "does runner",
      risk: "execute",
      argumentsJson: '{\n  "command": "rm -rf build"\n}',
      details: [{ name: "command", role: "value", segments: [{ text: "rm -rf build", marker: false }], note: null }],
      hiddenCharacters: [],
      canAllowForSession: false,
      alwaysAllow: null,
      offerReadOnlyDefault: false,
      deniedByRule: null,
    });
  });

  it("after allow_session, later calls of that read tool are approved without asking", async () => {
    const state = policy(true);
    const user = scriptedUser(["allow_session"]);
    const approve = createApprovalGate(() => state, user.ask);
    const reader = tool("reader", "read");
    assert.equal(await approve(readyCall(reader)), "allow_session");
    assert.equal(await approve(readyCall(reader)), "approve");
    assert.equal(await approve(readyCall(reader)), "approve");
    assert.equal(user.asked.length, 1);
    assert.equal(user.asked[0]?.canAllowForSession, true);
  });

  it("allow_session for a write or execute tool counts once and keeps asking", async () => {
    for (const risk of ["write", "execute"] as const) {
      const state = policy(true);
      const user = scriptedUser(["allow_session", "deny"]);
      const approve = createApprovalGate(() => state, user.ask);
      const subject = tool(`${risk}_tool`, risk);
      assert.equal(await approve(readyCall(subject)), "approve");
      assert.equal(await approve(readyCall(subject)), "deny");
      assert.equal(user.asked.length, 2);
      assert.equal(state.sessionAllowances.has(subject.name), false);
    }
  });

  it("ignores session allowances in an untrusted workspace and does not offer them", async () => {
    const allowances = new SessionAllowances();
    const reader = tool("reader", "read");
    allowances.allow(reader);
    const user = scriptedUser(["allow_session", "approve"]);
    const approve = createApprovalGate(() => policy(false, allowances), user.ask);
    assert.equal(await approve(readyCall(reader)), "approve");
    assert.equal(await approve(readyCall(reader)), "approve");
    assert.equal(user.asked.length, 2);
    assert.equal(user.asked[0]?.canAllowForSession, false);
  });

  it("reads the state at every decision: an allowance answered after the tool was turned off is not remembered", async () => {
    const allowances = new SessionAllowances();
    let disabled: string[] = [];
    const reader = tool("reader", "read");
    const user = scriptedUser(["allow_session", "allow_session", "approve"]);
    const approve = createApprovalGate(() => policy(true, allowances, disabled), async (request) => {
      // The settings change while the card is open.
      disabled = ["reader"];
      return user.ask(request);
    });
    assert.equal(await approve(readyCall(reader)), "approve", "counted once, not for the session");
    assert.equal(allowances.has("reader"), false);
    disabled = [];
    assert.equal(await approve(readyCall(reader)), "approve");
    assert.equal(user.asked.length, 2, "asked again: nothing was remembered");
    // Allowed while on, then turned off: the gate asks instead of approving by itself.
    const later = createApprovalGate(() => policy(true, allowances, disabled), user.ask);
    allowances.allow(reader);
    disabled = ["reader"];
    assert.equal(await later(readyCall(reader)), "approve");
    assert.equal(user.asked.length, 3);
  });

  it("passes a denial through", async () => {
    const user = scriptedUser(["deny"]);
    assert.equal(await createApprovalGate(() => policy(true), user.ask)(readyCall(tool("reader", "read"))), "deny");
  });
});
