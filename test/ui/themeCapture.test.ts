// Captures the CSS variables VS Code gives a webview under each built-in theme, for the Chromium tests
// and screenshots of the panel (test/webview/fixtures/themes/). Runs only when asked:
//   RELAY_CHAT_CAPTURE_THEMES=1 node scripts/vscode/runUiTests.mjs --grep "theme variables"
import * as fs from "node:fs";
import * as path from "node:path";
import { Workbench } from "./workbench";

const themes: Array<[string, string]> = [
  ["dark", "Dark 2026"],
  ["light", "Light 2026"],
  ["dark-modern", "Dark Modern"],
  ["light-modern", "Light Modern"],
  ["high-contrast", "Dark High Contrast"],
  ["high-contrast-light", "Light High Contrast"],
];

(process.env.RELAY_CHAT_CAPTURE_THEMES ? describe : describe.skip)("theme variables", function () {
  this.timeout(180_000);

  it("captures the webview's theme variables under each theme", async () => {
    const workbench = await Workbench.open();
    try {
      await workbench.activityBarEntry("Relay Chat").click();
      const chat = workbench.webview();
      await chat.locator("body").waitFor({ timeout: 60_000 });
      const folder = path.resolve(__dirname, "..", "webview", "fixtures", "themes");
      fs.mkdirSync(folder, { recursive: true });
      for (const [file, theme] of themes) {
        await workbench.setColorTheme(theme);
        await workbench.page.waitForTimeout(1500);
        const captured = await chat.locator("html").evaluate((html) => ({ style: html.getAttribute("style") ?? "", bodyClass: document.body.className }));
        fs.writeFileSync(path.join(folder, `${file}.json`), `${JSON.stringify({ theme, ...captured }, null, 2)}\n`);
      }
    } finally {
      await workbench.close();
    }
  });
});
