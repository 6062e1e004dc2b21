import assert from "node:assert/strict";
import { requestLogIcon } from "../../src/lm/requestLogIcon";

describe("the request log's icons", () => {
  it("marks an answer that stopped early as a warning, a Stop as neutral, and only a failure as an error", () => {
    assert.equal(requestLogIcon("completed"), "$(pass)");
    for (const outcome of ["incomplete", "interrupted", "timed_out"]) assert.equal(requestLogIcon(outcome), "$(warning)", outcome);
    assert.equal(requestLogIcon("cancelled"), "$(circle-slash)");
    for (const outcome of ["failed", "error_event", "http_error", "network_error"]) assert.equal(requestLogIcon(outcome), "$(error)", outcome);
  });
});
