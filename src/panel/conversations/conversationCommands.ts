import * as path from "node:path";
import * as l10n from "@vscode/l10n";
import type { Conversation } from "../../chat/conversation";
import { activePath } from "../../chat/conversation";
import { titleOf } from "../../chat/conversationSummary";
import type { ConversationSummary } from "../../chat/conversationSummary";
import { conversationToJson } from "../../chat/exportJson";
import { conversationToMarkdown } from "../../chat/exportMarkdown";
import { activeHistoryItems } from "../../chat/historyItems";
import type { HistoryStore } from "../../chat/historyStore";
import type { ImageStore } from "../../chat/imageStore";

// The saved conversations: their list, and rename, delete and export.
// What needs the user (a name, a confirmation, a file) goes through ConversationUi, which the vscode
// adapter implements with input boxes and dialogs; the rules (what is exported, that the key never is)
// live here.

export interface ConversationUi {
  askForTitle(current: string): Promise<string | undefined>;
  confirmDelete(title: string): Promise<boolean>;
  /** Where to export; `suggestedName` has no folder and no extension. Undefined when the user cancels. */
  chooseExportFile(suggestedName: string): Promise<string | undefined>;
  writeFile(path: string, text: string): Promise<void>;
  writeBinaryFile(path: string, bytes: Uint8Array): Promise<void>;
  showInformation(message: string): void;
  showWarning(message: string): void;
  /** Says where the export went, with an Open button for the file. */
  showExported(message: string, path: string): void;
}

export class ConversationCommands {
  /** Newest first, as the history list shows them. */
  summaries: ConversationSummary[] = [];

  constructor(
    private readonly store: HistoryStore,
    private readonly ui: ConversationUi,
    private readonly redact: (text: string) => string,
  ) {}

  /** Reads the list again; returns sentences about damaged files that were set aside. */
  async reload(): Promise<string[]> {
    const listing = await this.store.list();
    this.summaries = listing.conversations;
    return listing.problems;
  }

  /** The new title, or null when nothing was renamed. */
  async rename(conversationId: string): Promise<string | null> {
    const title = (await this.ui.askForTitle(this.titleOf(conversationId)))?.trim();
    if (!title) return null;
    const renamed = await this.store.rename(conversationId, title);
    if (!renamed.ok) {
      this.ui.showWarning(renamed.problem);
      return null;
    }
    await this.reload();
    return renamed.conversation.title;
  }

  /** True when the conversation was deleted. */
  async delete(conversationId: string): Promise<boolean> {
    if (!(await this.ui.confirmDelete(this.titleOf(conversationId)))) return false;
    await this.store.delete(conversationId);
    await this.reload();
    return true;
  }

  /** Exports the saved conversation as Markdown, or JSON when the chosen file ends in .json. */
  async export(conversationId: string | null): Promise<void> {
    const opened = conversationId === null ? null : await this.store.open(conversationId);
    if (opened === null || !opened.ok) {
      this.ui.showWarning(opened !== null && !opened.ok ? opened.problem : l10n.t("There is no saved conversation to export yet."));
      return;
    }
    const target = await this.ui.chooseExportFile(safeFileName(titleOf(opened.conversation)));
    if (target === undefined) return;
    let exported: ExportedConversation;
    try {
      exported = await exportConversation(opened.conversation, target, this.store.images);
    } catch (error) {
      this.ui.showWarning((error as Error).message);
      return;
    }
    // The images first: the document never links to a file that is not there yet.
    for (const image of exported.images) await this.ui.writeBinaryFile(path.join(path.dirname(target), image.relativePath), image.bytes);
    await this.ui.writeFile(target, this.redact(exported.text));
    this.ui.showExported(l10n.t("Exported to {0}.", target), target);
  }

  private titleOf(conversationId: string): string {
    return this.summaries.find((entry) => entry.id === conversationId)?.title ?? "";
  }
}

export interface ExportedConversation {
  text: string;
  /** Image files to write beside the document, by their path relative to its folder. */
  images: { relativePath: string; bytes: Uint8Array }[];
}

/**
 * JSON carries the branch's input as it would be sent, images as data URLs. Markdown is for reading: its
 * images are files in a folder beside it (`chat.md` links into `chat-images/`). A missing image stops the
 * export, saying which, rather than exporting a conversation without it.
 */
export async function exportConversation(conversation: Conversation, target: string, images: ImageStore): Promise<ExportedConversation> {
  if (target.toLowerCase().endsWith(".json")) return { text: conversationToJson(conversation, await images.resolve(activeHistoryItems(conversation))), images: [] };
  const folder = `${path.basename(target).replace(/\.[^.]*$/, "")}-images`;
  const names = [...new Set(activePath(conversation).flatMap((turn) => turn.images ?? []))];
  const files = await Promise.all(
    names.map(async (name) => {
      const image = await images.get(name);
      if (image === null) throw new Error(l10n.t("An image of this conversation is missing from its folder ({0}).", name));
      return { relativePath: path.join(folder, name), bytes: Buffer.from(image.data, "base64") };
    }),
  );
  return { text: conversationToMarkdown(conversation, l10n.t, folder), images: files };
}

/** A file name from a title: letters, digits, spaces, dots and dashes; at most 60 characters, none of them leading or trailing dots or underscores ("/commit" is "commit"). */
export function safeFileName(title: string): string {
  return (
    title
      .replace(/[^\p{L}\p{N} _.-]+/gu, "_")
      .slice(0, 60)
      .replace(/^[\s._]+|[\s._]+$/g, "") || "conversation"
  );
}
