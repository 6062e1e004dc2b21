// Two windows on one folder share one history (issue 18, part 2): two browser tabs on the same folder in
// code-server, each its own window with its own extension host, against the relay emulator. A
// conversation sent in one shows in the other's History without a reload.
// Run with: node scripts/vscode/runUiTests.mjs --grep "two windows"
import type { FrameLocator } from "playwright-core";
import { Workbench } from "./workbench";

describe("Relay Chat history shared by two windows on one folder", function () {
  this.timeout(240_000);
  let first: Workbench;
  let second: Workbench;
  let firstChat: FrameLocator;
  let secondChat: FrameLocator;
  const stamp = Date.now().toString(36);

  before(async () => {
    first = await Workbench.open();
    second = await Workbench.open();
    firstChat = await first.openRelayChat();
    secondChat = await second.openRelayChat();
  });

  afterEach(async function () {
    if (this.currentTest?.state === "failed") {
      await first?.screenshot("shared-history-failed-first").catch(() => undefined);
      await second?.screenshot("shared-history-failed-second").catch(() => undefined);
    }
  });

  after(async () => {
    await first?.close();
    await second?.close();
  });

  async function send(workbench: Workbench, chat: FrameLocator, text: string): Promise<void> {
    const back = chat.getByRole("button", { name: "Back to chat" });
    if (await back.isVisible()) await back.click();
    await workbench.newChat();
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.fill(text);
    await message.press("Enter");
    await chat.getByText(`You said: ${text}`).first().waitFor({ timeout: 60_000 });
  }

  async function historyShows(workbench: Workbench, chat: FrameLocator, texts: string[]): Promise<void> {
    const history = chat.getByRole("region", { name: "Chat history" });
    if (!(await history.isVisible())) await workbench.viewAction("Show Chat History").click();
    await history.waitFor({ timeout: 30_000 });
    await history.getByRole("searchbox", { name: "Filter conversations" }).fill(stamp);
    for (const text of texts) await history.getByRole("button", { name: new RegExp(text) }).first().waitFor({ timeout: 30_000 });
  }

  it("shows both windows' conversations in both windows' History, without a reload", async () => {
    await send(first, firstChat, `From the first window ${stamp}`);
    await send(second, secondChat, `From the second window ${stamp}`);
    await historyShows(second, secondChat, [`From the first window ${stamp}`, `From the second window ${stamp}`]);
    // The first window learns of the second's conversation only through the folder watch.
    await historyShows(first, firstChat, [`From the first window ${stamp}`, `From the second window ${stamp}`]);
    await first.panelScreenshot("shared-history-first-window");

    // And the second window of a conversation the first starts after both lists were read.
    await send(first, firstChat, `Again from the first window ${stamp}`);
    await historyShows(second, secondChat, [`Again from the first window ${stamp}`, `From the first window ${stamp}`, `From the second window ${stamp}`]);
    await second.panelScreenshot("shared-history-second-window");
  });
});
