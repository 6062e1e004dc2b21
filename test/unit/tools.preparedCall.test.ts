import assert from "node:assert/strict";
import type { ToolAvailability } from "../../src/tools/approvalPolicy";
import { prepareCall } from "../../src/tools/preparedCall";
import type { PreparedCall } from "../../src/tools/preparedCall";
import type { Tool, ToolRisk } from "../../src/tools/toolContract";
import { ToolRegistry } from "../../src/tools/toolRegistry";

function fakeTool(name: string, risk: ToolRisk, onRun: () => void = () => undefined): Tool {
  return {
    name,
    description: `${name} description`,
    risk,
    parameters: {
      type: "object",
      properties: {
        path: { type: "string" },
        count: { type: "integer", minimum: 1 },
        mode: { enum: ["fast", "slow"] },
        nested: { type: "object", properties: { items: { type: "array", items: { type: "string" } } } },
      },
      required: ["path"],
      additionalProperties: false,
    },
    run: async () => {
      onRun();
      return "ran";
    },
  };
}

const trusted: ToolAvailability = { trusted: true, disabledToolNames: new Set() };

describe("tools: ToolRegistry", () => {
  it("produces the flat Responses layout for enabled tools, passing strict only when set", () => {
    const strictTool: Tool = { ...fakeTool("strict_one", "read"), strict: true };
    const registry = new ToolRegistry([fakeTool("read_it", "read"), strictTool]);
    const tools = registry.requestTools(trusted);
    assert.deepEqual(tools[0], {
      type: "function",
      name: "read_it",
      description: "read_it description",
      parameters: fakeTool("read_it", "read").parameters,
    });
    assert.equal("strict" in (tools[0] as object), false);
    assert.equal(tools[1]?.strict, true);
    assert.deepEqual(JSON.parse(JSON.stringify(tools)), tools, "survives JSON serialization unchanged");
  });

  it("leaves out disabled tools, and everything but read tools when untrusted", () => {
    const registry = new ToolRegistry([fakeTool("r", "read"), fakeTool("w", "write"), fakeTool("x", "execute")]);
    const names = (availability: ToolAvailability): string[] => registry.requestTools(availability).map((tool) => tool.name);
    assert.deepEqual(names(trusted), ["r", "w", "x"]);
    assert.deepEqual(names({ trusted: true, disabledToolNames: new Set(["w"]) }), ["r", "x"]);
    assert.deepEqual(names({ trusted: false, disabledToolNames: new Set() }), ["r"]);
    assert.deepEqual(names({ trusted: false, disabledToolNames: new Set(["r"]) }), []);
  });

  it("refuses duplicate names, bad names and invalid schemas when built", () => {
    assert.throws(() => new ToolRegistry([fakeTool("a", "read"), fakeTool("a", "write")]), /twice/);
    assert.throws(() => new ToolRegistry([fakeTool("has space", "read")]), /name/);
    assert.throws(
      () => new ToolRegistry([{ ...fakeTool("typo", "read"), parameters: { type: "object", propertees: {} } }]),
      /schema of tool "typo"/,
    );
  });
});

describe("tools: prepareCall", () => {
  let runs = 0;
  const registry = new ToolRegistry([fakeTool("read_it", "read", () => runs++), fakeTool("write_it", "write", () => runs++)]);
  const prepare = (name: string, args: string, availability: ToolAvailability = trusted): PreparedCall =>
    prepareCall({ call_id: "call_1", name, arguments: args }, registry, availability);
  const problemOf = (prepared: PreparedCall): string => {
    assert.equal(prepared.status, "rejected");
    assert.equal(prepared.call_id, "call_1");
    return prepared.status === "rejected" ? prepared.problem : "";
  };

  afterEach(() => assert.equal(runs, 0, "preparing must never run a tool"));

  it("accepts valid arguments and returns them parsed", () => {
    const prepared = prepare("read_it", '{"path":"a.txt","count":2,"nested":{"items":["x"]}}');
    assert.equal(prepared.status, "ready");
    assert.ok(prepared.status === "ready");
    assert.equal(prepared.tool.name, "read_it");
    assert.deepEqual(prepared.args, { path: "a.txt", count: 2, nested: { items: ["x"] } });
  });

  it("rejects invalid JSON with the parser's reason", () => {
    const problem = problemOf(prepare("read_it", '{"path": "a.txt"'));
    assert.match(problem, /^Error: /);
    assert.match(problem, /not valid JSON/);
    assert.match(problem, /nothing was run/);
  });

  it("rejects JSON that is not an object", () => {
    assert.match(problemOf(prepare("read_it", '["a.txt"]')), /must be a JSON object, not an array/);
    assert.match(problemOf(prepare("read_it", "null")), /not null/);
    assert.match(problemOf(prepare("read_it", '"a.txt"')), /not string/);
  });

  it("treats empty arguments as an empty object, which then fails the schema on its own terms", () => {
    assert.match(problemOf(prepare("read_it", "")), /missing required property "path"/);
  });

  it("names the property for a wrong type", () => {
    assert.match(problemOf(prepare("read_it", '{"path": 5}')), /property "path" must be of type string/);
    assert.match(problemOf(prepare("read_it", '{"path": "a", "count": 1.5}')), /property "count" must be of type integer/);
  });

  it("names a missing required property", () => {
    assert.match(problemOf(prepare("read_it", '{"count": 2}')), /missing required property "path"/);
  });

  it("names an extra property", () => {
    assert.match(problemOf(prepare("read_it", '{"path":"a","colour":"red"}')), /unexpected property "colour" is not allowed/);
  });

  it("reports every problem at once and names nested locations", () => {
    const problem = problemOf(prepare("read_it", '{"count":0,"mode":"medium","nested":{"items":[1]}}'));
    assert.match(problem, /missing required property "path"/);
    assert.match(problem, /property "count" must be >= 1/);
    assert.match(problem, /property "mode" must be one of \["fast","slow"\]/);
    assert.match(problem, /property "nested\.items\[0\]" must be of type string/);
  });

  it("rejects an unknown tool and lists the offered ones", () => {
    const problem = problemOf(prepare("delete_everything", "{}"));
    assert.match(problem, /no tool named "delete_everything"/);
    assert.match(problem, /Available tools: read_it, write_it\./);
    const rejected = prepare("delete_everything", "{}");
    assert.ok(rejected.status === "rejected" && rejected.name === "delete_everything");
  });

  it("rejects a disabled tool even with valid arguments", () => {
    const problem = problemOf(prepare("read_it", '{"path":"a"}', { trusted: true, disabledToolNames: new Set(["read_it"]) }));
    assert.match(problem, /turned off in the Relay Chat settings/);
  });

  it("rejects a write tool in an untrusted workspace but still prepares read tools there", () => {
    const untrusted: ToolAvailability = { trusted: false, disabledToolNames: new Set() };
    assert.match(problemOf(prepare("write_it", '{"path":"a"}', untrusted)), /not trusted/);
    assert.equal(prepare("read_it", '{"path":"a"}', untrusted).status, "ready");
  });

  it("checks availability before arguments, so a disabled tool never echoes argument problems", () => {
    const problem = problemOf(prepare("write_it", "{not json", { trusted: true, disabledToolNames: new Set(["write_it"]) }));
    assert.match(problem, /turned off/);
    assert.doesNotMatch(problem, /JSON/);
  });
});
