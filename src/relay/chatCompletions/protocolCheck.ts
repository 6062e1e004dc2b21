import * as l10n from "@vscode/l10n";
import type { RelayClient } from "../client";
import type { CheckStep } from "../checkStep";
import type { RequestResult, ResponseRequest } from "../types";

// The check-up's finding about a model's wire: its Responses request was refused in the way that means "not this
// protocol", and the same small request, sent once over Chat Completions, says whether that works. The finding is
// a suggestion: the person confirms it. (A relay's model list is no such finding: new-api lists "openai" for every
// model of a default channel, whose /v1/responses works.)

export const CHAT_COMPLETIONS_STEP = "Chat Completions";

/** One more request: the refused one, over Chat Completions, without a reasoning effort (many such models take none). */
export async function probeChatCompletions(client: RelayClient, refused: ResponseRequest, signal: AbortSignal | undefined): Promise<{ step: CheckStep; works: boolean; result: RequestResult }> {
  const { reasoning: _effort, ...request } = refused;
  const result = await client.send(request, { signal, protocol: "chat" });
  const kind = result.outcome.kind;
  // An answer cut at the check's budget still answered: the wire works.
  const works = kind === "completed" || kind === "incomplete";
  const step: CheckStep = works
    ? { name: CHAT_COMPLETIONS_STEP, status: "ok", detail: l10n.t("The same request over Chat Completions (/v1/chat/completions) worked: this model needs Chat Completions on this relay. Confirm the switch to use it.") }
    : { name: CHAT_COMPLETIONS_STEP, status: "failed", detail: l10n.t("The same request over Chat Completions failed too ({0}): the model does not answer on either interface with this key.", `${kind}: ${result.explanation ?? ""}`.trim()) };
  return { step, works, result };
}
