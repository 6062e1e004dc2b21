import assert from "node:assert/strict";
import { REDACTED, redactJson, redactSecrets } from "../../src/relay/redact";

describe("key redaction", () => {
  const key = "sk-abc/DEF-0123456789";
  const table: Array<[string, string]> = [
    [`key ${key} here`, `key ${REDACTED} here`],
    [`"\\u0073k-abc\\/DEF-0123456789"`, `"${REDACTED}"`],
    [`"\\u0073\\u006B-abc/DEF-0123456789"`, `"${REDACTED}"`],
    [`"sk-abc\\u002fDEF-0123456789"`, `"${REDACTED}"`],
    ["Bearer anything.else", `Bearer ${REDACTED}`],
    ["nothing to hide", "nothing to hide"],
  ];
  for (const [text, expected] of table) {
    it(`redacts ${JSON.stringify(text)}`, () => assert.equal(redactSecrets(text, [key]), expected));
  }

  it("redacts every string and key of a decoded JSON answer", () => {
    const decoded = JSON.parse(`{"\\u0073k-abc\\/DEF-0123456789":["x \\u0073k-abc/DEF-0123456789"],"n":1}`) as unknown;
    assert.deepEqual(redactJson(decoded, [key]), { [REDACTED]: [`x ${REDACTED}`], n: 1 });
  });
});
