import { randomUUID } from "node:crypto";
import * as vscode from "vscode";
import { estimateTokensOfText } from "../chat/spendGuard";
import type { LedgerContext, RequestLedger } from "../chat/requestLedger";
import { ledgerRowFor, pendingLedgerRow } from "../chat/requestLedger";
import type { OutputLog } from "../host/outputLog";
import { protocolFor } from "../chat/modelSettings";
import type { RelayConnection } from "../host/relays/relayConnection";
import { functionCallsOf, outputTextOf, refusalTextOf } from "../relay/accumulate";
import { redactSecrets } from "../relay/redact";
import { buildResponseRequest } from "../relay/requestBuilder";
import type { RequestResult, ResponseRequest } from "../relay/types";
import { CarriedReasoning } from "./carriedReasoning";
import { chatMessagesFrom } from "./lmMessageParts";
import type { RelayModelCatalog } from "./relayModelCatalog";
import { relayRequestError } from "./requestFailure";
import { functionToolsFrom, parseCallArguments, responsesInputFrom, skippedPartsOf, toolNamesToSend } from "./responsesInput";
import { relayToolNames } from "./toolNames";

// The relay's models in VS Code's own chat (and for any extension through vscode.lm). Each call of
// provideLanguageModelChatResponse is exactly one relay request, built and read by the same relay client
// the panel uses: never retried (the caller decides whether to send again), always a row in the request
// ledger, and anything but `completed` thrown as an error that names the cause and the request id.
// VS Code runs the tools itself: a proposed call is handed back as a LanguageModelToolCallPart, and the
// result comes back in the next request as a LanguageModelToolResultPart.

export const RELAY_CHAT_VENDOR = "relay-chat";

/** The ledger's conversation for VS Code's chat: its requests belong to no panel conversation. */
const VSCODE_CHAT_CONVERSATION_ID = "vscode-chat";

export interface RelayChatModelProviderOptions {
  connection: RelayConnection;
  catalog: RelayModelCatalog;
  ledger: RequestLedger;
  log: OutputLog;
}

export class RelayChatModelProvider implements vscode.LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  /** Thinking models' reasoning, which VS Code does not hand back (carriedReasoning.ts). */
  private readonly reasoning = new CarriedReasoning();

  constructor(private readonly options: RelayChatModelProviderOptions) {}

  /** The model list or what VS Code is told about the models changed (relay, key, limits, findings). */
  modelsChanged(): void {
    this.options.catalog.forget();
    this.changed.fire();
  }

  provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<vscode.LanguageModelChatInformation[]> {
    return this.options.catalog.information(options.silent, token);
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const { connection, log } = this.options;
    const served = this.options.catalog.refOf(model.id);
    const client = served === null ? null : await connection.clientFor(served.relay);
    if (!client || !served) throw new Error(vscode.l10n.t("Relay Chat: {0}", connection.missing() ?? vscode.l10n.t("no relay is configured.")));
    if (token.isCancellationRequested) throw new vscode.CancellationError();

    const chat = chatMessagesFrom(messages);
    const skipped = skippedPartsOf(chat);
    if (skipped.length > 0) log.info(`VS Code chat request for ${model.id}: left out parts the relay cannot take: ${skipped.join(", ")}`);
    const offered = options.tools ?? [];
    // One table for the tools offered and the calls in the history: a call to a tool no longer offered is
    // sent under a valid name too, the same one it had while the tool was offered.
    const names = relayToolNames(toolNamesToSend(chat, offered));
    const relayName = (name: string) => names.relayNameOf.get(name) ?? name;
    // The model's wire as the person set or confirmed it (relayChat.modelSettings), else Responses: a relay's model list never moves a model.
    const protocol = protocolFor(connection.settings.modelSettings, served.relay, served.model);
    const input = responsesInputFrom(chat, relayName);
    const request: ResponseRequest = buildResponseRequest({
      model: served.model,
      input: protocol === "chat" ? this.reasoning.restore(served.relay, input) : input,
      tools: functionToolsFrom(offered, relayName),
      maxOutputTokens: connection.settings.maxOutputTokens,
      stream: connection.settings.stream,
    });
    // VS Code asks for a tool call only in its "required" tool mode.
    if (options.toolMode === vscode.LanguageModelChatToolMode.Required && request.tools) request.tool_choice = "required";

    const abort = new AbortController();
    const onCancel = token.onCancellationRequested(() => abort.abort());
    let reported = "";
    let result: RequestResult | null = null;
    const ledgerContext = { entryId: `lm_${randomUUID()}`, conversationId: VSCODE_CHAT_CONVERSATION_ID, turnId: `lm_${randomUUID()}`, purpose: "vscode_chat" as const, model: served.model, relay: served.relay };
    let pendingRow: Promise<void> = Promise.resolve();
    const startedAt = Date.now();
    try {
      for await (const update of client.stream(request, { signal: abort.signal, protocol })) {
        if (update.type === "end") {
          result = update.result;
          break;
        }
        if (update.type === "headers") {
          // As in the panel: a billed request is in the ledger as soon as the relay answers.
          pendingRow = this.options.ledger
            .record(pendingLedgerRow(update.headers, { ...ledgerContext, streamed: request.stream === true, startedAt }))
            .catch((error: unknown) => log.error(`The VS Code chat request could not be added to the request ledger (${(error as Error).message}).`));
          continue;
        }
        for (const event of update.events) {
          if (event.type !== "response.output_text.delta" || typeof event.delta !== "string" || event.delta === "") continue;
          progress.report(new vscode.LanguageModelTextPart(event.delta));
          reported += event.delta;
        }
      }
    } finally {
      onCancel.dispose();
    }
    if (!result) throw new Error("The relay stream ended without a result; this is a bug in Relay Chat.");
    await pendingRow;
    await this.record(result, ledgerContext);

    const redact = (text: string) => redactSecrets(text, connection.secrets());
    const finalText = outputTextOf(result.snapshot.output);
    // Text that arrived without deltas (a whole body, or a relay that only sends finished items).
    if (finalText.length > reported.length && finalText.startsWith(reported)) progress.report(new vscode.LanguageModelTextPart(finalText.slice(reported.length)));
    else if (finalText !== reported && result.outcome.kind === "completed") {
      log.error(`request ${result.requestId ?? "-"}: the streamed text and the final response differ; VS Code's chat shows the streamed text`);
    }

    if (result.outcome.kind === "cancelled") throw new vscode.CancellationError();
    if (result.outcome.kind !== "completed") throw relayRequestError(result, redact);
    this.reasoning.remember(served.relay, result.snapshot.output);
    // VS Code's chat has no refusal part: the refusal is said as text, marked as one, in the model's words.
    const refusal = refusalTextOf(result.snapshot.output);
    if (refusal) progress.report(new vscode.LanguageModelTextPart(`${finalText || reported ? "\n\n" : ""}${vscode.l10n.t("The model declined to answer: {0}", refusal)}`));
    // Calls are handed over only from a completed response: a cut-off call has cut-off arguments.
    for (const call of functionCallsOf(result.snapshot.output)) {
      const parsed = parseCallArguments(call.arguments);
      if (!parsed.ok) {
        throw new Error(
          vscode.l10n.t(
            'Relay Chat: the model called the tool "{0}" with arguments that are {1}, so the call was not passed on. Request id: {2}.',
            call.name,
            parsed.problem,
            result.requestId ?? vscode.l10n.t("none"),
          ),
        );
      }
      progress.report(new vscode.LanguageModelToolCallPart(call.call_id, names.originalNameOf.get(call.name) ?? call.name, parsed.input));
    }
  }

  /** The spend guard's estimate: about one token per four characters of what would be sent. */
  provideTokenCount(_model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    if (typeof text === "string") return Promise.resolve(estimateTokensOfText(text));
    const items = responsesInputFrom(chatMessagesFrom([text]), (name) => name);
    return Promise.resolve(estimateTokensOfText(JSON.stringify(items)));
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** The ledger row and the Output line, as for every panel request. A failed write never hides the answer. */
  private async record(result: RequestResult, context: Omit<LedgerContext, "streamed" | "startedAt">): Promise<void> {
    const row = ledgerRowFor(result, context);
    const level = result.outcome.kind === "completed" ? "info" : "error";
    this.options.log[level](
      `request ${row.requestId ?? "(no request id)"} · model ${row.model} · vscode_chat · outcome ${row.outcome} · http ${row.httpStatus ?? "-"} · ` +
        `first byte ${row.firstByteMs ?? "-"} ms · total ${row.totalMs} ms${result.explanation ? ` · ${result.explanation}` : ""}`,
    );
    try {
      await this.options.ledger.record(row);
    } catch (error) {
      this.options.log.error(`The VS Code chat request ${row.requestId ?? "-"} could not be added to the request ledger (${(error as Error).message}).`);
    }
  }
}
