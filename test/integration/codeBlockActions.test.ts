// "Apply to file" from an answer's code block, inside a real VS Code: the snippet merged where it belongs in the
// named file, the change reviewed in the editor (Keep one part, Undo another), and the file on disk afterwards.
import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { EditReview } from "../../src/host/review/editReview";
import { CodeBlockActions } from "../../src/panel/editor/codeBlockActions";
import type { PlaceChoice } from "../../src/panel/editor/codeBlockActions";
import { waitFor } from "./panelState";

const service = ["export function load(path: string) {", "  return read(path);", "}", "", "export function save(path: string, text: string) {", "  write(path, text);", "}", "", "export function remove(path: string) {", "  unlink(path);", "}", ""].join("\n");

describe("code block actions in the editor", function () {
  this.timeout(60_000);

  let workspaceRoot: string;
  let folderName: string;
  let actions: CodeBlockActions;
  let review: EditReview;
  let offered: PlaceChoice[][] = [];
  let pick: (choices: readonly PlaceChoice[]) => PlaceChoice | undefined = (choices) => choices[0];
  let notices: string[] = [];

  before(async () => {
    workspaceRoot =
      vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ??
      process.env.RELAY_CHAT_TEST_WORKSPACE ??
      (await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-code-blocks-")));
    folderName = `code-blocks-${process.pid}-${Date.now()}`;
    await fs.mkdir(path.join(workspaceRoot, folderName), { recursive: true });
    // VS Code for the Web (code-server) saves after a delay by default; these tests look at the disk before a decision.
    await vscode.workspace.getConfiguration("files").update("autoSave", "off", vscode.ConfigurationTarget.Global);
    review = new EditReview();
    actions = new CodeBlockActions({
      workspaceFolders: () => [workspaceRoot],
      notify: (message) => notices.push(message),
      review,
      pickPlace: async (choices) => {
        offered.push([...choices]);
        return pick(choices);
      },
    });
  });

  beforeEach(() => {
    offered = [];
    notices = [];
    pick = (choices) => choices[0];
  });

  after(async () => {
    for (const uri of review.filesInReview()) await review.undoFile(uri);
    review.dispose();
    await vscode.workspace.getConfiguration("files").update("autoSave", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await fs.rm(path.join(workspaceRoot, folderName), { recursive: true, force: true });
  });

  async function writeFile(name: string, text: string): Promise<{ relative: string; uri: vscode.Uri }> {
    const absolute = path.join(workspaceRoot, folderName, name);
    await fs.mkdir(path.dirname(absolute), { recursive: true });
    await fs.writeFile(absolute, text);
    return { relative: `${folderName}/${name}`, uri: vscode.Uri.file(absolute) };
  }

  it("merges a snippet into the function it redefines; Keep one part, Undo another, and the file on disk has the kept one", async () => {
    const { relative, uri } = await writeFile("service.ts", service);
    const snippet = ["export function save(path: string, text: string) {", "  validate(text);", "  write(path, text);", "  log(path);", "}"].join("\n");
    await actions.applyToFile(snippet, relative);
    assert.deepEqual(offered, [], "one place fits, nobody is asked");
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), service.replace("  write(path, text);\n", "  validate(text);\n  write(path, text);\n  log(path);\n"));
    assert.equal(document.isDirty, true);
    assert.equal(await fs.readFile(uri.fsPath, "utf8"), service, "nothing on disk before the review");
    assert.equal(review.pendingChanges(uri), 2, "two changed parts: the line before write() and the one after");

    await review.keepChange(uri, 0);
    await review.undoChange(uri, 1);
    const expected = service.replace("  write(path, text);\n", "  validate(text);\n  write(path, text);\n");
    assert.equal(await fs.readFile(uri.fsPath, "utf8"), expected);
    await waitFor(() => !document.isDirty, 5_000, "the file to be saved");
    assert.deepEqual(review.filesInReview(), []);
  });

  it("asks where a snippet goes only when several places fit", async () => {
    const twoClasses = "class A {\n  run() {\n    a();\n  }\n}\nclass B {\n  run() {\n    b();\n  }\n}\n";
    const { relative, uri } = await writeFile("classes.js", twoClasses);
    pick = (choices) => choices[1];
    await actions.applyToFile("run() {\n  c();\n}", relative);
    assert.deepEqual(
      offered[0]?.map((choice) => choice.label),
      ["Replace run (lines 2–4)", "Replace run (lines 7–9)"],
    );
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), twoClasses.replace("b();", "c();"));
    await review.undoFile(uri);
    assert.equal(await fs.readFile(uri.fsPath, "utf8"), twoClasses);
  });

  it("refuses a named file outside the workspace with a notice and changes nothing", async () => {
    await actions.applyToFile("x", "../outside-the-workspace.ts");
    assert.deepEqual(review.filesInReview(), []);
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /outside the workspace/);
  });

  it("says so when the file already contains the code", async () => {
    const { relative } = await writeFile("same.ts", service);
    await actions.applyToFile("export function remove(path: string) {\n  unlink(path);\n}\n", relative);
    assert.deepEqual(review.filesInReview(), []);
    assert.match(notices[0] ?? "", /already contains this code/);
  });

  it("creates a new file the block names, kept on Keep", async () => {
    const relative = `${folderName}/created/new.ts`;
    const absolute = path.join(workspaceRoot, relative);
    await actions.applyToFile("created();\n", relative);
    const uri = vscode.Uri.file(absolute);
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), "created();\n");
    await review.keepFile(uri);
    assert.equal(await fs.readFile(absolute, "utf8"), "created();\n");
  });
});
