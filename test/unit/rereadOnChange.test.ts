import assert from "node:assert/strict";
import { RereadOnChange } from "../../src/host/instructions/rereadOnChange";

// The project rules and the prompt files are read this way: once when first asked for, once per burst of
// changes, one read at a time, the last value kept while a read runs or after one fails.

describe("reading files again after they change", () => {
  it("reads once when asked, once per burst of changes, and waits only when asked to be fresh", async () => {
    let reads = 0;
    const values: number[] = [];
    const errors: string[] = [];
    const reader = new RereadOnChange(
      async () => {
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (reads === 3) throw new Error("disk gone");
        return reads;
      },
      (value) => values.push(value),
      (error) => errors.push(error.message),
    );
    assert.equal(reader.pending, true, "nothing read yet");
    reader.readIfStale();
    reader.readIfStale();
    await reader.fresh();
    assert.deepEqual(values, [1], "one read for two asks");
    assert.equal(reader.pending, false);

    for (let change = 0; change < 5; change += 1) reader.changed();
    assert.equal(reader.pending, true);
    await reader.fresh();
    assert.deepEqual(values, [1, 2], "a burst of changes: one read (fresh starts it without waiting for the delay)");
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(reads, 2, "and the delayed read does not run again once it is read");

    reader.markStale();
    await reader.fresh();
    assert.deepEqual(errors, ["disk gone"], "a failed read is said");
    assert.deepEqual(values, [1, 2], "and the last value stays");
    reader.dispose();
  });
});
