import assert from "node:assert/strict";
import { PanelHarness } from "./panelHarness";
import type { PanelPage } from "./panelHarness";

/**
 * The mocha hooks every panel test file needs: one harness for the file, a fresh page per test, and after
 * each test no page errors and no CSP violations. Returns the current test's page and the file's harness.
 */
export function freshPanelPerTest(): { panel: () => PanelPage; harness: () => PanelHarness } {
  let harness: PanelHarness;
  let panel: PanelPage;
  before(async () => {
    harness = await PanelHarness.start();
  });
  after(async () => {
    await harness?.close();
  });
  beforeEach(async () => {
    panel = await harness.open();
  });
  afterEach(async () => {
    const violations = await panel.page.evaluate(() => window.__cspViolations);
    await panel.page.close();
    assert.deepEqual(panel.pageErrors, []);
    assert.deepEqual(violations, [], "no CSP violations");
  });
  return { panel: () => panel, harness: () => harness };
}
