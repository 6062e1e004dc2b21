import type { Conversation } from "../../chat/conversation";
import { IMAGE_TOKEN_ESTIMATE, estimateSend, withInstructionTokens } from "../../chat/spendGuard";
import type { ContextMeterView } from "../protocol";

// The context meter: how big the next request would be (the whole branch is resent, plus what is
// attached), against the model's context window where the user configured one. An estimate, made the
// same way as the spend warning's: from the last reported usage, plus about a token per four characters.

let cached: { key: string; view: ContextMeterView } | null = null;

export function contextMeterFor(conversation: Conversation | null, attachedText: string, windowTokens: number | null, instructionTokens = 0): ContextMeterView {
  // The estimate reads the branch (and, without reported usage, its text): computed again only when the
  // conversation was saved, the branch or the attachments changed.
  const key = `${conversation?.id}:${conversation?.updatedAt}:${conversation?.activeTurnId}:${conversation?.turns.length}:${attachedText.length}:${windowTokens}:${instructionTokens}`;
  if (cached?.key === key) return cached.view;
  // What the model is told goes with every request: counted unless the last reported usage already holds it.
  const estimatedTokens = conversation === null ? Math.ceil(attachedText.length / 4) + instructionTokens : withInstructionTokens(estimateSend(conversation, conversation.activeTurnId, attachedText, 0), instructionTokens).inputTokens;
  const view: ContextMeterView = { estimatedTokens, windowTokens: windowTokens !== null && windowTokens > 0 ? windowTokens : null, tokensPerImage: IMAGE_TOKEN_ESTIMATE };
  cached = { key, view };
  return view;
}
