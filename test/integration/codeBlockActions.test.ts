// "Apply to file" from an answer's code block, inside a real VS Code: the diff review of propose_edit, the
// target choices, and that nothing is written without an explicit accept.
import assert from "node:assert/strict";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { CodeBlockActions } from "../../src/panel/codeBlockActions";
import type { TargetChoice } from "../../src/panel/codeBlockActions";
import { proposalScheme } from "../../src/tools/builtin/proposalDocuments";

interface Review {
  shownPath: string;
  diffTabOpen: boolean;
  proposedText: string | undefined;
}

describe("code block actions in the editor", function () {
  this.timeout(60_000);

  let workspaceRoot: string;
  let folderName: string;
  let actions: CodeBlockActions;
  let accept = false;
  let reviews: Review[] = [];
  let offered: TargetChoice[][] = [];
  let pick: (choices: readonly TargetChoice[]) => TargetChoice | undefined = (choices) => choices[0];
  let notices: string[] = [];

  before(async () => {
    workspaceRoot =
      vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ??
      process.env.RELAY_CHAT_TEST_WORKSPACE ??
      (await fs.mkdtemp(path.join(os.tmpdir(), "relay-chat-code-blocks-")));
    folderName = `code-blocks-${process.pid}-${Date.now()}`;
    await fs.mkdir(path.join(workspaceRoot, folderName), { recursive: true });
    actions = new CodeBlockActions({
      workspaceFolders: () => [workspaceRoot],
      notify: (message) => notices.push(message),
      confirmApply: async (shownPath) => {
        const diffTab = proposalDiffTab();
        const proposedText = diffTab === undefined ? undefined : (await vscode.workspace.openTextDocument(diffTab.modified)).getText();
        reviews.push({ shownPath, diffTabOpen: diffTab !== undefined, proposedText });
        return accept;
      },
      pickTarget: async (choices) => {
        offered.push([...choices]);
        return pick(choices);
      },
    });
  });

  beforeEach(() => {
    accept = false;
    reviews = [];
    offered = [];
    notices = [];
    pick = (choices) => choices[0];
  });

  after(async () => {
    actions.dispose();
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await fs.rm(path.join(workspaceRoot, folderName), { recursive: true, force: true });
  });

  async function writeFile(name: string, text: string): Promise<{ relative: string; uri: vscode.Uri }> {
    const absolute = path.join(workspaceRoot, folderName, name);
    await fs.writeFile(absolute, text);
    return { relative: `${folderName}/${name}`, uri: vscode.Uri.file(absolute) };
  }

  it("shows the code as a diff against the file the block names and applies it, unsaved, only on accept", async () => {
    const { relative, uri } = await writeFile("named.ts", "export const a = 1;\n");
    accept = true;
    await actions.applyToFile("export const a = 2;\n", relative);
    assert.equal(offered[0]?.[0]?.path, relative, "the block's file is the first choice");
    assert.deepEqual(reviews, [{ shownPath: relative, diffTabOpen: true, proposedText: "export const a = 2;\n" }]);
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), "export const a = 2;\n");
    assert.equal(document.isDirty, true, "applied but left unsaved");
    assert.equal(await fs.readFile(uri.fsPath, "utf8"), "export const a = 1;\n");
    assert.equal(proposalDiffTab(), undefined, "the review closes its diff");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("changes nothing when the review is rejected", async () => {
    const { relative, uri } = await writeFile("rejected.ts", "keep();\n");
    await actions.applyToFile("replace();\n", relative);
    assert.equal(reviews.length, 1);
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), "keep();\n");
    assert.deepEqual(notices, []);
  });

  it("offers the active editor's selection and replaces only that part when picked", async () => {
    const { relative, uri } = await writeFile("selection.ts", "one();\ntwo();\nthree();\n");
    const editor = await vscode.window.showTextDocument(uri);
    editor.selection = new vscode.Selection(1, 0, 1, 6);
    accept = true;
    pick = (choices) => choices.find((choice) => choice.replaceSelection === true);
    await actions.applyToFile("TWO();", "");
    const labels = offered[0]!.map((choice) => [choice.path, choice.replaceSelection === true]);
    assert.deepEqual(labels, [
      [relative, true],
      [relative, false],
      [undefined, false],
    ]);
    assert.equal(reviews[0]?.proposedText, "one();\nTWO();\nthree();\n");
    assert.equal(editor.document.getText(), "one();\nTWO();\nthree();\n");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("refuses a named file outside the workspace with a notice and shows no diff", async () => {
    accept = true;
    await actions.applyToFile("x", "../outside-the-workspace.ts");
    assert.deepEqual(reviews, []);
    assert.equal(notices.length, 1);
    assert.match(notices[0]!, /outside the workspace/);
  });

  it("offers a new file named by the block and creates it only on accept", async () => {
    const relative = `${folderName}/created/new.ts`;
    await actions.applyToFile("created();\n", relative);
    await assert.rejects(fs.stat(path.join(workspaceRoot, relative)));
    accept = true;
    await actions.applyToFile("created();\n", relative);
    assert.equal(reviews.length, 2);
    const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.fsPath === path.join(workspaceRoot, relative));
    assert.equal(document?.getText(), "created();\n");
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });
});

function proposalDiffTab(): vscode.TabInputTextDiff | undefined {
  for (const tab of vscode.window.tabGroups.all.flatMap((group) => group.tabs)) {
    if (tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === proposalScheme) return tab.input;
  }
  return undefined;
}
