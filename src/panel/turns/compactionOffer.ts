import type { CompactionSettings } from "../../chat/compaction";
import { compactionBoundary } from "../../chat/compaction";
import type { Conversation } from "../../chat/conversation";
import { activePath } from "../../chat/conversation";
import { summaryRequestFits } from "../../chat/spendGuard";
import type { CompactionOfferView, ContextMeterView } from "../protocol";
import { causeOf } from "./turnFixes";

// When the panel offers Summarize earlier turns: the next request would fill more of the context window than
// the threshold, or the relay refused the last one as too long; and there are turns before the kept ones.
// Pure; the summary itself is made only when the person asks (or allowed it in the settings). The number of
// turns offered is what one click replaces: fewer than all when their summary request would not fit the
// window itself, and then the offer comes back for the rest.

export function compactionOfferFor(
  conversation: Conversation | null,
  meter: Pick<ContextMeterView, "estimatedTokens" | "windowTokens"> | null,
  settings: CompactionSettings,
  busy: boolean,
  maxOutputTokens: number | null = null,
): CompactionOfferView | null {
  if (conversation === null || busy) return null;
  const last = activePath(conversation).at(-1);
  const tooLong = last !== undefined && causeOf(last.outcome) === "context_length";
  const nearLimit = meter !== null && meter.windowTokens !== null && meter.estimatedTokens > (meter.windowTokens * settings.thresholdPercent) / 100;
  if (!tooLong && !nearLimit) return null;
  const fits = summaryRequestFits(conversation, meter?.windowTokens ?? null, maxOutputTokens);
  const boundary = compactionBoundary(conversation, conversation.activeTurnId, settings.keepTurns, fits);
  return boundary === null ? null : { reason: tooLong ? "too_long" : "near_limit", turns: boundary.replacedTurns };
}
