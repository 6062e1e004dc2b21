import type { Conversation } from "../../chat/conversation";
import { findTurn } from "../../chat/conversation";
import { estimateTokensOfText } from "../../chat/spendGuard";
import { attachmentBlock, limitedAttachment, sentAttachments } from "./messageAttachments";
import type { Attachment, NewAttachment } from "./messageAttachments";
import type { AttachmentTarget, AttachmentTextView } from "../protocol";

// What an opened chip shows: the block its attachment adds to the user message, made by the same function
// that composes the message (before sending) or cut out of the message as it was stored and sent (after), so
// the page shows the bytes the request carries, not a description of them.

export interface AttachmentTextSources {
  /** An attachment waiting for the next message, by its id. */
  pending(id: string): Attachment | undefined;
  /** The active editor's file as it would go with the next message now; null when none is offered. */
  activeFile(): NewAttachment | null;
  /** The conversation on screen, whose sent messages hold their attachments. */
  conversation(): Conversation | null;
}

/** The chip's text and tokens; null when it is not there any more (removed, sent, another conversation). */
export function attachmentTextOf(target: AttachmentTarget, sources: AttachmentTextSources): AttachmentTextView | null {
  switch (target.place) {
    case "pending": {
      const attachment = sources.pending(target.id);
      return attachment === undefined ? null : viewOf(attachment, attachmentBlock(attachment));
    }
    case "activeFile": {
      const file = sources.activeFile();
      if (file === null) return null;
      const sent = limitedAttachment(file);
      return viewOf(sent, attachmentBlock(sent));
    }
    case "sent": {
      const conversation = sources.conversation();
      const turn = conversation === null ? undefined : findTurn(conversation, target.turnId);
      const attachment = turn === undefined ? undefined : sentAttachments(turn.userText)[target.index];
      return attachment === undefined ? null : viewOf(attachment, attachment.block);
    }
  }
}

function viewOf(attachment: Pick<Attachment, "kind" | "label" | "note">, block: string): AttachmentTextView {
  const view: AttachmentTextView = { kind: attachment.kind, label: attachment.label, text: block, tokens: estimateTokensOfText(block) };
  return attachment.note === undefined ? view : { ...view, note: attachment.note };
}
