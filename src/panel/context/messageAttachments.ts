import type { AttachmentLabel, AttachmentView } from "../protocol";
import { ATTACHMENT_KINDS } from "../protocol";

// Context the user attaches to the next message (a file, a selection). It travels inside the user
// message itself, after the question, one tagged and fenced block per attachment: the relay sees plain
// text, the history resends it unchanged, and the panel can split a sent message back into what was typed
// and what was attached (to show chips, and to keep the attachments when a message is edited).

export interface Attachment extends AttachmentView {
  text: string;
  /** The fence's info string (a language id or a file extension), may be empty. */
  language: string;
}

export type NewAttachment = Omit<Attachment, "id">;

export const MAX_ATTACHMENT_CHARS = 100_000;

export class AttachmentList {
  private items: Attachment[] = [];
  private counter = 0;

  /** `redact` takes the relay keys out of an attachment's text before it is kept (and so before it is sent or stored). */
  constructor(private readonly redact: (text: string) => string = (text) => text) {}

  add(attachment: NewAttachment): void {
    const clean = this.redact(attachment.text);
    const redacted = clean !== attachment.text ? { redacted: true as const } : {};
    // The same file or selection twice is one attachment, with the newer text.
    this.items = this.items.filter((existing) => !(existing.kind === attachment.kind && existing.label === attachment.label));
    this.counter += 1;
    this.items.push({ ...limitedAttachment({ ...attachment, text: clean }), ...redacted, id: `att_${this.counter}` });
  }

  get(id: string): Attachment | undefined {
    return this.items.find((attachment) => attachment.id === id);
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

  /** All attached text, for the estimate of the next request's size. */
  get text(): string {
    return this.items.map((attachment) => attachment.text).join("\n");
  }

  views(): AttachmentView[] {
    return this.items.map(({ id, label, kind, note, redacted }) => ({ id, label, kind, ...(note === undefined ? {} : { note }), ...(redacted ? { redacted } : {}) }));
  }
}

/** The attachment as it goes with a message: a text longer than MAX_ATTACHMENT_CHARS is cut, and says so. */
export function limitedAttachment(attachment: NewAttachment): NewAttachment {
  if (attachment.text.length <= MAX_ATTACHMENT_CHARS) return attachment;
  return { ...attachment, text: `${attachment.text.slice(0, MAX_ATTACHMENT_CHARS)}\n[... cut at ${MAX_ATTACHMENT_CHARS} characters]` };
}

type BlockParts = Pick<Attachment, "kind" | "label" | "text" | "language">;

/** The user message: the question, then each attachment as a tagged, fenced block. */
export function composeMessage(text: string, attachments: readonly BlockParts[]): string {
  return [text, ...attachments.map(attachmentBlock)].filter(Boolean).join("\n\n");
}

/** One attachment's block: exactly what it adds to the message (composeMessage joins the parts with a blank line). */
export function attachmentBlock(attachment: BlockParts): string {
  const fence = fenceFor(attachment.text);
  const body = attachment.text.endsWith("\n") ? attachment.text : `${attachment.text}\n`;
  return `<attachment kind="${attachment.kind}" label="${escapeAttribute(attachment.label)}">\n${fence}${attachment.language}\n${body}${fence}\n</attachment>`;
}

export interface SplitMessage {
  /** What the user typed. */
  text: string;
  attachments: AttachmentLabel[];
  /** The attachment blocks as they were sent, to send again with an edited question. */
  blocks: string;
}

/** An attachment of a sent message, with its block as the message holds it. */
export interface SentAttachment extends AttachmentLabel {
  block: string;
}

/** Splits a sent message into the question and its attachments; a message without them is all text. */
export function splitMessage(message: string): SplitMessage {
  const { text, attachments, blocks } = splitWithBlocks(message);
  return { text, attachments: attachments.map(({ kind, label }) => ({ kind, label })), blocks };
}

/** The attachments of a sent message, each with its block exactly as it was sent. */
export function sentAttachments(message: string): SentAttachment[] {
  return splitWithBlocks(message).attachments;
}

function splitWithBlocks(message: string): { text: string; attachments: SentAttachment[]; blocks: string } {
  const marker = new RegExp(`(^|\\n\\n)<attachment kind="(?:${KIND_ALTERNATIVES})" label="`, "g");
  for (let match = marker.exec(message); match !== null; match = marker.exec(message)) {
    const start = match.index + match[1].length;
    const attachments = parseBlocks(message, start);
    if (attachments !== null) return { text: message.slice(0, match.index), attachments, blocks: message.slice(start) };
  }
  return { text: message, attachments: [], blocks: "" };
}

const KIND_ALTERNATIVES = ATTACHMENT_KINDS.join("|");
const HEADER = new RegExp(`^<attachment kind="(${KIND_ALTERNATIVES})" label="([^"\\n]*)">\\n(\`{3,})[^\\n\`]*\\n`);

/** The attachments from `start` to the end of the message, or null if that is not exactly a list of blocks. */
function parseBlocks(message: string, start: number): SentAttachment[] | null {
  const found: SentAttachment[] = [];
  let position = start;
  while (position < message.length) {
    const header = HEADER.exec(message.slice(position));
    if (header === null) return null;
    const fence = header[3];
    const closing = `\n${fence}\n</attachment>`;
    // The fence is longer than any backtick run inside, so its first closing line is the end of the block.
    const end = message.indexOf(closing, position + header[0].length - 1);
    if (end === -1) return null;
    const blockEnd = end + closing.length;
    found.push({ kind: header[1] as AttachmentLabel["kind"], label: unescapeAttribute(header[2]), block: message.slice(position, blockEnd) });
    position = blockEnd;
    if (position === message.length) return found;
    if (!message.startsWith("\n\n", position)) return null;
    position += 2;
  }
  return null;
}

/** A backtick fence longer than any run of backticks in the text, so the text cannot close it. */
function fenceFor(text: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  return "`".repeat(Math.max(3, longestRun + 1));
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/\n/g, " ");
}

function unescapeAttribute(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}
