import * as vscode from "vscode";
import type { WorkspaceFiles } from "../../panel/context/workspaceFiles";
import { EDIT_CONTEXT_KINDS, typedContextWord } from "./editContext";

// The quick input of an edit in place: the instruction as typed, and while a `#` word is being typed, the context
// it can name (the editor's kinds, then the workspace's files matching it). Picking one puts its `#` word in the
// instruction; Enter with no `#` word being typed sends it. A quick pick rather than an input box, because only a
// quick pick can offer choices as one types; its items are always shown, whatever the rest of the text is.

const MAX_FILES_OFFERED = 12;

interface ContextItem extends vscode.QuickPickItem {
  word: string;
}

export function askInstruction(options: { title: string; placeholder: string; files: WorkspaceFiles }): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<ContextItem>();
  pick.title = options.title;
  pick.placeholder = options.placeholder;
  pick.matchOnDescription = false;
  let asked = 0;
  const offer = async (value: string) => {
    const query = typedContextWord(value);
    const ask = ++asked;
    if (query === null) {
      pick.items = [];
      return;
    }
    const kinds = EDIT_CONTEXT_KINDS.filter((kind) => kind.word.startsWith(query.toLowerCase())).map((kind) => ({ label: `#${kind.word}`, description: kind.label(), word: kind.word, alwaysShow: true }));
    pick.items = kinds;
    pick.busy = true;
    const files = await options.files.search(query, MAX_FILES_OFFERED).catch(() => []);
    if (ask !== asked) return;
    pick.busy = false;
    pick.items = [...kinds, ...files.map((file) => ({ label: `$(file) ${file.path}`, description: vscode.l10n.t("file"), word: file.path, alwaysShow: true }))];
  };
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue((value) => void offer(value));
    pick.onDidAccept(() => {
      const chosen = pick.activeItems[0];
      if (chosen && typedContextWord(pick.value) !== null) {
        pick.value = pick.value.replace(/#[^\s#]*$/, `#${chosen.word} `);
        pick.items = [];
        return;
      }
      finish(pick.value);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}
