import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import path from "node:path";
import { HistoryStore } from "../../src/chat/historyStore";
import { FileStorage } from "../../src/chat/fileStorage";
import { exportConversation } from "../../src/panel/conversations/conversationCommands";
import { turnViewsOf } from "../../src/panel/turns/turnView";
import { contextMeterFor } from "../../src/panel/context/contextMeter";
import { createConversation } from "../../src/chat/conversation";
import { userMessageWith } from "../../src/chat/imageStore";
import { IMAGE_TOKEN_ESTIMATE, estimateSend, estimateTokensOfItems, estimateTokensOfText } from "../../src/chat/spendGuard";
import type { ChatHarness } from "../fixtures/chat/chatHarness";
import { allFilesUnder, finishedTurn, startChatHarness } from "../fixtures/chat/chatHarness";

// Images in messages (issue 21): the request carries each image as an `input_image` part with a data URL,
// while the history keeps only a reference to a content-addressed file beside the conversations.

// A 1x1 transparent PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

describe("images in messages", () => {
  let harness: ChatHarness;
  beforeEach(async () => {
    harness = await startChatHarness();
  });
  afterEach(async () => {
    await harness.close();
  });

  it("sends input_image parts as data URLs, stores the image once, and keeps base64 out of the history", async () => {
    const session = harness.newSession();
    const first = finishedTurn(await session.send("what is this?", { images: [{ mediaType: "image/png", data: PNG }] }));
    finishedTurn(await session.send("and this one again?", { images: [{ mediaType: "image/png", data: PNG }] }));
    const bodies = harness.emulator.received.filter((request) => request.method === "POST").map((request) => JSON.parse(request.rawBody) as { input: { role?: string; content?: unknown }[] });
    assert.deepEqual(bodies[0]?.input[0], {
      type: "message",
      role: "user",
      content: [
        { type: "input_text", text: "what is this?" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
      ],
    });
    const posts = harness.emulator.received.filter((request) => request.method === "POST");
    assert.deepEqual(posts.map((request) => request.inputImages), [["image/png"], ["image/png", "image/png"]], "the emulator records the images each request carried");
    // The second request resends the first message byte for byte.
    assert.equal(JSON.stringify(bodies[1]?.input[0]), JSON.stringify(bodies[0]?.input[0]));
    assert.equal(first.images?.length, 1);
    // Reopened from disk (another window, a restart), the turn still knows its images.
    const reopened = await new HistoryStore(new FileStorage(harness.folder)).open(session.conversation.id);
    assert.ok(reopened.ok);
    assert.deepEqual(reopened.conversation.turns[0]?.images, first.images);

    const files = await allFilesUnder(harness.folder);
    const images = files.filter((file) => file.file.includes(`${path.sep}images${path.sep}`));
    assert.equal(images.length, 1, "the same image is stored once");
    assert.match(path.basename(images[0]?.file ?? ""), /^[0-9a-f]{64}\.png$/);
    for (const file of files.filter((file) => !images.includes(file))) {
      assert.ok(!file.bytes.toString("utf8").includes(PNG), `${file.file} holds no base64 image`);
    }
  });

  it("exports the images as data URLs in the JSON export's input", async () => {
    const session = harness.newSession();
    finishedTurn(await session.send("what is this?", { images: [{ mediaType: "image/png", data: PNG }] }));
    const exported = await exportConversation(session.conversation, "chat.json", harness.store.images);
    assert.deepEqual((JSON.parse(exported.text) as { input: { content: unknown }[] }).input[0]?.content, [
      { type: "input_text", text: "what is this?" },
      { type: "input_image", image_url: `data:image/png;base64,${PNG}` },
    ]);
    assert.deepEqual(exported.images, [], "no files beside a JSON export");
  });

  it("exports Markdown with the images as files in a folder beside it, linked relatively", async () => {
    const session = harness.newSession();
    const turn = finishedTurn(await session.send("what is this?", { images: [{ mediaType: "image/png", data: PNG }] }));
    finishedTurn(await session.send("and this, again?", { images: [{ mediaType: "image/png", data: PNG }] }));
    const [name] = turn.images ?? [];
    const target = path.join("/exports", "My chat.md");
    const exported = await exportConversation(session.conversation, target, harness.store.images);
    assert.deepEqual(
      exported.images.map((image) => ({ relativePath: image.relativePath, base64: Buffer.from(image.bytes).toString("base64") })),
      [{ relativePath: path.join("My chat-images", name ?? ""), base64: PNG }],
      "the image both messages carried is one file, with the image's own bytes",
    );
    assert.equal(exported.text.split(`![Image 1](My%20chat-images/${name})`).length - 1, 2, exported.text);
    assert.ok(!exported.text.includes(PNG), "no base64 in the document");
    for (const file of await allFilesUnder(harness.folder)) if (file.file.endsWith(".png")) await rm(file.file);
    await assert.rejects(exportConversation(session.conversation, target, harness.store.images), /An image of this conversation is missing from its folder/);
  });

  it("regenerating a turn, or editing its text, sends its images again", async () => {
    const session = harness.newSession();
    const turn = finishedTurn(await session.send("describe", { images: [{ mediaType: "image/png", data: PNG }] }));
    finishedTurn(await session.regenerate(turn.id));
    const edited = finishedTurn(await session.editAndResend(turn.id, "describe it in one word"));
    assert.deepEqual(edited.images, turn.images);
    const bodies = harness.emulator.received.filter((request) => request.method === "POST").map((request) => request.rawBody);
    assert.equal(bodies.length, 3);
    assert.ok(bodies[1]?.includes(`data:image/png;base64,${PNG}`));
    assert.ok(bodies[2]?.includes(`data:image/png;base64,${PNG}`));
  });

  it("refuses to resend a message whose image file is gone, saying so, and starts no turn", async () => {
    const session = harness.newSession();
    const turn = finishedTurn(await session.send("describe", { images: [{ mediaType: "image/png", data: PNG }] }));
    for (const file of await allFilesUnder(harness.folder)) if (file.file.endsWith(".png")) await rm(file.file);
    await assert.rejects(session.regenerate(turn.id), /An image of this conversation is missing from its folder/);
    assert.equal(session.conversation.turns.length, 1);
    assert.equal(harness.emulator.received.filter((request) => request.method === "POST").length, 1);
  });

  it("explains a relay's 400 about image input as a model that does not accept images", async () => {
    const session = harness.newSession();
    harness.emulator.queueFault({ kind: "status", status: 400, code: "invalid_request_error", message: "Invalid content type. image_url is only supported by certain models." });
    const turn = finishedTurn(await session.send("what is this?", { images: [{ mediaType: "image/png", data: PNG }] }));
    assert.equal(turn.outcome.kind, "http_error");
    assert.match(turn.requests[0]?.explanation ?? "", /This model does not accept images\. Pick a model that can read images, or send the message again without them\./);
    const [view] = turnViewsOf(session.conversation, { streamingTurnId: null, liveText: null });
    assert.deepEqual(view?.actions, ["resendWithoutImages", "retry"], "the failed turn offers to send it again without the images");

    const resent = finishedTurn(await session.resendWithoutImages(turn.id));
    assert.equal(resent.outcome.kind, "completed");
    assert.equal(resent.parentId, turn.parentId, "a new version of the message; the refused one stays reachable");
    assert.equal(resent.images, undefined);
    const bodies = harness.emulator.received.filter((request) => request.method === "POST").map((request) => JSON.parse(request.rawBody) as { input: unknown[] });
    assert.equal(bodies.length, 2, "one request for the one click");
    assert.deepEqual(bodies[1]?.input, [{ type: "message", role: "user", content: "what is this?" }]);
    const [afterResend] = turnViewsOf(session.conversation, { streamingTurnId: null, liveText: null });
    assert.deepEqual(afterResend?.actions, []);
  });

  it("offers no resend without images for a turn that had none, or for another 400", async () => {
    const session = harness.newSession();
    harness.emulator.queueFault({ kind: "status", status: 400, code: "invalid_request_error", message: "image_url is only supported by certain models." });
    finishedTurn(await session.send("no image here"));
    harness.emulator.queueFault({ kind: "status", status: 400, code: "invalid_request_error", message: "Unknown parameter: foo." });
    finishedTurn(await session.send("with an image", { images: [{ mediaType: "image/png", data: PNG }] }));
    const views = turnViewsOf(session.conversation, { streamingTurnId: null, liveText: null });
    assert.deepEqual(views.map((view) => view.actions), [["retry"], ["retry"]]);
  });

  it("counts each image as the documented 765 tokens in the estimates (context meter, spend warning)", () => {
    const names = ["a".repeat(64) + ".png", "b".repeat(64) + ".png"];
    const textPart = estimateTokensOfText(JSON.stringify({ type: "input_text", text: "abcd" }));
    assert.equal(IMAGE_TOKEN_ESTIMATE, 765);
    assert.equal(estimateTokensOfItems([userMessageWith("abcd", names)]), textPart + 2 * IMAGE_TOKEN_ESTIMATE, "sent images in the history");
    assert.equal(estimateSend(createConversation("c", "m", 1), null, "abcd", 0, 2).inputTokens, 1 + 2 * IMAGE_TOKEN_ESTIMATE, "the images of the message being sent");
    assert.equal(contextMeterFor(null, "", null).tokensPerImage, IMAGE_TOKEN_ESTIMATE, "the meter counts images in the box the same way");
  });

  it("refuses a media type outside PNG, JPEG, WebP and GIF", async () => {
    const store = new HistoryStore(new FileStorage(harness.folder));
    await assert.rejects(store.images.put({ mediaType: "image/svg+xml", data: "PHN2Zy8+" }), /PNG, JPEG, WebP or GIF/);
    assert.equal((await allFilesUnder(harness.folder)).some((file) => file.file.includes("images")), false);
  });
});
