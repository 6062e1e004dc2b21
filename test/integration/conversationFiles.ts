import { promises as fs } from "node:fs";
import path from "node:path";

/**
 * The raw text a conversation has on disk: its snapshot and the journals windows appended to it
 * (HistoryStore), so a test can look for what was saved, or for what must never be.
 */
export async function conversationFilesText(storageFolder: string, conversationId: string): Promise<string> {
  const folder = path.join(storageFolder, "conversations");
  const names = (await fs.readdir(folder)).filter((name) => name === `${conversationId}.json` || (name.startsWith(`${conversationId}.`) && name.endsWith(".jsonl")));
  if (names.length === 0) throw new Error(`no file of conversation ${conversationId} in ${folder}`);
  const texts = await Promise.all(names.map((name) => fs.readFile(path.join(folder, name), "utf8")));
  return texts.join("\n");
}
