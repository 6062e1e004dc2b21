// The rules the tools core applies to an "external" tool (another extension's or an MCP server's, run
// through VS Code; src/lm/externalTools.ts builds them): always asked about unless the user opted in for
// that tool, never offered in an untrusted workspace, and validated against its own (foreign) schema.
import assert from "node:assert/strict";
import type { ApprovalRequest } from "../../src/tools/approvalGate";
import { createApprovalGate } from "../../src/tools/approvalGate";
import { SessionAllowances, decideApproval } from "../../src/tools/approvalPolicy";
import { prepareCall } from "../../src/tools/preparedCall";
import type { ReadyCall } from "../../src/tools/preparedCall";
import type { Tool } from "../../src/tools/toolContract";
import { ToolRegistry } from "../../src/tools/toolRegistry";

function externalTool(name: string, options: { optIn?: boolean; parameters?: Tool["parameters"] } = {}): Tool {
  return {
    name,
    description: `External tool "${name}"`,
    parameters: options.parameters ?? { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
    risk: "external",
    sessionAllowanceOptIn: options.optIn,
    run: async () => "ran",
  };
}

const trusted = { trusted: true, disabledToolNames: new Set<string>() };

describe("lm: the external-tool rules of the tools core", () => {
  it("always asks about an external tool, even one the session allowances name, unless the user opted in", () => {
    const allowances = new SessionAllowances();
    const plain = externalTool("plain");
    assert.equal(allowances.allow(plain), false, "cannot be allowed for the session without the opt-in");
    assert.equal(decideApproval({ tool: plain }, { ...trusted, sessionAllowances: allowances }), "ask");

    const optedIn = externalTool("opted_in", { optIn: true });
    assert.equal(allowances.allow(optedIn), true);
    assert.equal(decideApproval({ tool: optedIn }, { ...trusted, sessionAllowances: allowances }), "auto-approve");
    assert.equal(decideApproval({ tool: optedIn }, { ...trusted, trusted: false, sessionAllowances: allowances }), "ask", "untrusted always asks");
    // The opt-in means nothing for the other risks: a write tool still always asks.
    assert.equal(allowances.allow({ name: "writer", risk: "write", sessionAllowanceOptIn: true }), false);
  });

  it("offers 'allow for this session' on the card only for an opted-in external tool, and records it", async () => {
    const requests: ApprovalRequest[] = [];
    const allowances = new SessionAllowances();
    const gate = createApprovalGate(() => ({ ...trusted, sessionAllowances: allowances }), async (request) => {
      requests.push(request);
      return "allow_session";
    });
    const registry = new ToolRegistry([externalTool("plain"), externalTool("opted_in", { optIn: true })]);
    const call = (name: string) => prepareCall({ call_id: `call_${name}`, name, arguments: '{"note":"hi"}' }, registry, trusted) as ReadyCall;

    assert.equal(await gate(call("plain")), "approve", "an allow_session answer for a plain external tool counts once");
    assert.equal(await gate(call("plain")), "approve");
    assert.equal(requests.length, 2, "asked both times");
    assert.equal(requests[0].risk, "external");
    assert.equal(requests[0].canAllowForSession, false);

    assert.equal(await gate(call("opted_in")), "allow_session");
    assert.equal(requests[2].canAllowForSession, true);
    assert.equal(await gate(call("opted_in")), "approve");
    assert.equal(requests.length, 3, "not asked again this session");
  });

  it("never offers an external tool in an untrusted workspace, and refuses its calls there", () => {
    const registry = new ToolRegistry([externalTool("plain")]);
    const untrusted = { trusted: false, disabledToolNames: new Set<string>() };
    assert.deepEqual(registry.requestTools(untrusted), []);
    const prepared = prepareCall({ call_id: "c", name: "plain", arguments: '{"note":"hi"}' }, registry, untrusted);
    assert.equal(prepared.status, "rejected");
  });

  it("checks calls against a schema written by someone else: unknown annotations accepted, stated rules enforced", () => {
    // VS Code's tool schemas use markdownDescription; untyped properties and union types are common in MCP tools.
    const parameters = {
      properties: { code: { type: "string", pattern: "^[0-9]+$", markdownDescription: "Digits" }, flag: { type: ["boolean", "null"] } },
      required: ["code"],
    };
    assert.throws(() => new ToolRegistry([{ ...externalTool("x", { parameters }), risk: "read" }]), /not valid/, "a built-in tool's schema stays strict");
    const registry = new ToolRegistry([externalTool("digits", { parameters })]);
    const check = (args: string) => prepareCall({ call_id: "c", name: "digits", arguments: args }, registry, trusted);
    assert.equal(check('{"code":"42","flag":null}').status, "ready");
    const refused = check('{"code":"example"}');
    assert.equal(refused.status, "rejected");
    assert.match((refused as { problem: string }).problem, /pattern/);
  });
});
