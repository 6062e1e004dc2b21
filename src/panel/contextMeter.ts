import type { Conversation } from "../chat/conversation";
import { IMAGE_TOKEN_ESTIMATE, estimateSend } from "../chat/spendGuard";
import type { ContextMeterView } from "./protocol";

// The context meter: how big the next request would be (the whole branch is resent, plus what is
// attached), against the model's context window where the user configured one. An estimate, made the
// same way as the spend warning's: from the last reported usage, plus about a token per four characters.

let cached: { key: string; view: ContextMeterView } | null = null;

export function contextMeterFor(conversation: Conversation | null, attachedText: string, windowTokens: number | null): ContextMeterView {
  // The estimate reads the branch (and, without reported usage, its text): computed again only when the
  // conversation was saved, the branch or the attachments changed.
  const key = `${conversation?.id}:${conversation?.updatedAt}:${conversation?.activeTurnId}:${conversation?.turns.length}:${attachedText.length}:${windowTokens}`;
  if (cached?.key === key) return cached.view;
  const estimatedTokens = conversation === null ? Math.ceil(attachedText.length / 4) : estimateSend(conversation, conversation.activeTurnId, attachedText, 0).inputTokens;
  const view: ContextMeterView = { estimatedTokens, windowTokens: windowTokens !== null && windowTokens > 0 ? windowTokens : null, tokensPerImage: IMAGE_TOKEN_ESTIMATE };
  cached = { key, view };
  return view;
}
