import * as vscode from "vscode";
import type { ChatSettings } from "../../chat/chatSettings";
import type { RequestLedger } from "../../chat/requestLedger";
import type { TurnCheckpoints } from "../../chat/toolRound";
import { requestCost } from "../../chat/cost";
import { runEditExchange } from "../../editInPlace/editExchange";
import { editReceipt } from "../../editInPlace/editReceipt";
import type { EditRegion } from "../../editInPlace/editRegion";
import { editedText, replacementHunks } from "../../editInPlace/editRegion";
import type { EditRequest } from "../../editInPlace/editRequest";
import { readReplacement } from "../../editInPlace/replacementText";
import type { AssembledInstructions } from "../../instructions/assembleInstructions";
import { sentSources } from "../../instructions/assembleInstructions";
import { relayRequestError } from "../../lm/requestFailure";
import { outputTextOf, refusalTextOf } from "../../relay/accumulate";
import type { RelayClient } from "../../relay/client";
import { redactSecrets } from "../../relay/redact";
import type { RequestResult } from "../../relay/types";
import type { EditReview } from "../review/editReview";
import type { OutputLog } from "../outputLog";
import { PendingEdit } from "./pendingEdit";

// One edit in place, from the request to the review: the answer streams into the buffer (PendingEdit), then the
// streamed lines are taken out and the whole change is handed to the edit review, where Keep and Undo work per
// change and per file and Ctrl+Z takes it back in one step. Whatever goes wrong (a cancel, a refusal, an HTTP error,
// a broken stream, the person typing in the file meanwhile), the file is left as it was and the person is told why.

export interface EditRunServices {
  ledger: RequestLedger;
  log: OutputLog;
  review: EditReview;
  checkpoints: TurnCheckpoints;
  secrets: () => readonly string[];
}

export interface EditRunInput {
  document: vscode.TextDocument;
  region: EditRegion;
  client: RelayClient;
  settings: ChatSettings;
  built: EditRequest;
  instructions: AssembledInstructions;
  signal: AbortSignal;
}

/** How the run ended, for the command (and the in-host test through it). */
export type EditRunEnd = { kind: "proposed"; changes: number; result: RequestResult } | { kind: "unchanged"; reason: string; result: RequestResult | null };

export async function runEditInPlace(services: EditRunServices, input: EditRunInput): Promise<EditRunEnd> {
  const { document, region, settings } = input;
  const wasDirty = document.isDirty;
  const abort = new AbortController();
  const stop = () => abort.abort();
  input.signal.addEventListener("abort", stop);
  let changedByOthers = false;
  const pending = new PendingEdit(document, region, () => {
    changedByOthers = true;
    abort.abort();
  });
  // The checkpoint is taken while the model writes; the change waits for it before it lands.
  const checkpoint = services.checkpoints.take().catch((error: unknown) => {
    services.log.error(`Edit in place: the checkpoint before the edit failed (${(error as Error).message}); the edit goes on without one.`);
    return null;
  });
  let result: RequestResult | null = null;
  try {
    result = await runEditExchange({
      client: input.client,
      request: input.built.request,
      ...(settings.protocol ? { protocol: settings.protocol } : {}),
      ledger: services.ledger,
      ...(settings.relay !== undefined ? { relay: settings.relay } : {}),
      price: settings.priceOf?.(settings.model) ?? null,
      instructions: { sources: sentSources(input.instructions), hash: input.instructions.hash },
      signal: abort.signal,
      onText: (text) => void pending.show(readReplacement(text, false).text).catch((error: unknown) => services.log.error(`Edit in place: ${(error as Error).message}`)),
      onLedgerProblem: (message) => services.log.error(`Edit in place: the request could not be added to the request ledger (${message}).`),
    });
  } catch (error) {
    await putBack(pending, document, wasDirty);
    return { kind: "unchanged", reason: (error as Error).message, result: null };
  } finally {
    input.signal.removeEventListener("abort", stop);
  }
  logRequest(services.log, result, settings);
  const redact = (text: string) => redactSecrets(text, services.secrets());
  const answer = outputTextOf(result.snapshot.output);
  const refusal = refusalTextOf(result.snapshot.output);
  if (result.outcome.kind !== "completed" || refusal !== "" || changedByOthers) {
    if (changedByOthers) {
      // Only lines still exactly as streamed are taken out: the person's own typing is never undone.
      if (pending.intact()) await putBack(pending, document, wasDirty);
      else pending.dispose();
      return { kind: "unchanged", reason: vscode.l10n.t("The file changed while the edit was streaming, so the edit was stopped."), result };
    }
    await putBack(pending, document, wasDirty);
    if (result.outcome.kind === "cancelled") return { kind: "unchanged", reason: vscode.l10n.t("Edit cancelled: the file is as it was."), result };
    if (refusal !== "") return { kind: "unchanged", reason: vscode.l10n.t("The model declined the edit: {0}", redact(refusal)), result };
    return { kind: "unchanged", reason: relayRequestError(result, redact).message, result };
  }
  const replacement = readReplacement(answer, true).text;
  await checkpoint;
  await putBack(pending, document, null);
  if (replacementHunks(region, replacement).length === 0) return { kind: "unchanged", reason: vscode.l10n.t("The model's answer changes nothing in the selected lines."), result };
  const { changes } = await services.review.propose(document.uri, editedText(region, replacement), { createsFile: false, wasDirty });
  return { kind: "proposed", changes, result };
}

/** The receipt line of a run's request, as the panel's receipt reads. */
export function receiptOf(result: RequestResult, settings: ChatSettings): string {
  return editReceipt(result, requestCost(result, settings.priceOf?.(settings.model) ?? null), vscode.env.language);
}

/** Takes the streamed lines out; a file that had no unsaved changes before is clean again (`wasDirty` null: left to the review). */
async function putBack(pending: PendingEdit, document: vscode.TextDocument, wasDirty: boolean | null): Promise<void> {
  try {
    await pending.remove();
  } finally {
    pending.dispose();
  }
  // The text is the saved text again. Saving it (not reverting) is right even when files.autoSave wrote a streamed
  // state to the disk meanwhile: the disk then gets the original back.
  if (wasDirty === false && document.isDirty) await document.save();
}

function logRequest(log: OutputLog, result: RequestResult, settings: ChatSettings): void {
  const level = result.outcome.kind === "completed" ? "info" : "error";
  log[level](
    `request ${result.requestId ?? "(no request id)"} · model ${settings.model} · edit_in_place · outcome ${result.outcome.kind} · http ${result.httpStatus ?? "-"} · ` +
      `total ${Math.round(result.timing.totalMs)} ms${result.explanation ? ` · ${result.explanation}` : ""}`,
  );
}
