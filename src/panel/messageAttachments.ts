import type { AttachmentView } from "./protocol";

// Context the user attaches to the next message (a file, a selection). It travels inside the user
// message itself, as fenced blocks after the question: the relay sees plain text, and the history
// resends it unchanged.

export interface Attachment extends AttachmentView {
  text: string;
  language: string;
}

export type NewAttachment = Omit<Attachment, "id">;

export const MAX_ATTACHMENT_CHARS = 100_000;

export class AttachmentList {
  private items: Attachment[] = [];
  private counter = 0;

  add(attachment: NewAttachment): void {
    const text =
      attachment.text.length > MAX_ATTACHMENT_CHARS ? `${attachment.text.slice(0, MAX_ATTACHMENT_CHARS)}\n[... cut at ${MAX_ATTACHMENT_CHARS} characters]` : attachment.text;
    // The same file or selection twice is one attachment, with the newer text.
    this.items = this.items.filter((existing) => !(existing.kind === attachment.kind && existing.label === attachment.label));
    this.counter += 1;
    this.items.push({ ...attachment, text, id: `att_${this.counter}` });
  }

  remove(id: string): void {
    this.items = this.items.filter((attachment) => attachment.id !== id);
  }

  /** The attachments, emptied: they go with the message being sent. */
  take(): Attachment[] {
    const taken = this.items;
    this.items = [];
    return taken;
  }

  get isEmpty(): boolean {
    return this.items.length === 0;
  }

  views(): AttachmentView[] {
    return this.items.map(({ id, label, kind }) => ({ id, label, kind }));
  }
}

/** The user message: the question, then each attachment as a fenced block. */
export function composeMessage(text: string, attachments: readonly Attachment[]): string {
  const blocks = attachments.map((attachment) => {
    const fence = fenceFor(attachment.text);
    return `${attachment.kind === "selection" ? "Selection from" : "File"} ${attachment.label}:\n${fence}${attachment.language}\n${attachment.text}\n${fence}`;
  });
  return [text, ...blocks].filter(Boolean).join("\n\n");
}

/** A backtick fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  return "`".repeat(Math.max(3, longestRun + 1));
}
