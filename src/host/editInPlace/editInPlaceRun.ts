import * as vscode from "vscode";
import type { ChatSettings } from "../../chat/chatSettings";
import type { RequestLedger } from "../../chat/requestLedger";
import type { TurnCheckpoints } from "../../chat/toolRound";
import { requestCost } from "../../chat/cost";
import { runEditExchange } from "../../editInPlace/editExchange";
import { editReceipt } from "../../editInPlace/editReceipt";
import type { EditRegion } from "../../editInPlace/editRegion";
import { editedText, fittedReplacement } from "../../editInPlace/editRegion";
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
// whole replacement takes the place of the streamed and the selected lines and the change is handed to the edit
// review, where Keep and Undo work per change and per file and Ctrl+Z takes it back in one step. Whatever goes
// wrong (a cancel, a refusal, an HTTP error, a broken stream, the person typing in the file meanwhile), the file is
// left as it was and the person is told why. A follow-up refines a pending change: its answer streams over the
// pending replacement, the review keeps the original, and a failed or cancelled follow-up leaves the pending
// replacement as it was.

export interface EditRunServices {
  ledger: RequestLedger;
  log: OutputLog;
  review: EditReview;
  checkpoints: TurnCheckpoints;
  secrets: () => readonly string[];
}

export interface EditRunInput {
  document: vscode.TextDocument;
  /** The original lines the change replaces (in the file before the first attempt). */
  region: EditRegion;
  /** A follow-up: the pending replacement's lines in the buffer now, which the refined answer streams over. */
  refines?: EditRegion;
  client: RelayClient;
  settings: ChatSettings;
  built: EditRequest;
  instructions: AssembledInstructions;
  signal: AbortSignal;
}

/** How the run ended, for the command (and the in-host test through it). */
export type EditRunEnd = { kind: "proposed"; changes: number; result: RequestResult; replacement: string } | { kind: "unchanged"; reason: string; result: RequestResult | null };

export async function runEditInPlace(services: EditRunServices, input: EditRunInput): Promise<EditRunEnd> {
  const { document, region, settings } = input;
  const streamOver = input.refines ?? region;
  // A refined change stays unsaved in review whatever happens: only a first attempt saves a clean file back.
  const wasDirty = input.refines ? null : document.isDirty;
  const textBefore = document.getText();
  const hold = input.refines ? services.review.hold(document.uri) : null;
  try {
    return await streamAndPropose(services, input, streamOver, wasDirty, textBefore);
  } finally {
    hold?.dispose();
  }
}

async function streamAndPropose(services: EditRunServices, input: EditRunInput, streamOver: EditRegion, wasDirty: boolean | null, textBefore: string): Promise<EditRunEnd> {
  const { document, region, settings } = input;
  const abort = new AbortController();
  const stop = () => abort.abort();
  input.signal.addEventListener("abort", stop);
  let changedByOthers = false;
  const pending = new PendingEdit(document, streamOver, () => {
    changedByOthers = true;
    abort.abort();
  });
  // The checkpoint is taken while the model writes; the change waits for it before it lands. A follow-up takes
  // none: the one before the first attempt holds the original.
  const checkpoint = input.refines ? Promise.resolve(null) : services.checkpoints.take().catch((error: unknown) => {
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
  const fitted = fittedReplacement(region, replacement);
  if (fitted === streamOver.selected.replace(/\r\n/g, region.eol)) {
    await putBack(pending, document, wasDirty);
    return { kind: "unchanged", reason: input.refines ? vscode.l10n.t("The model's answer to the follow-up is the pending change as it was.") : vscode.l10n.t("The model's answer changes nothing in the selected lines."), result };
  }
  await checkpoint;
  try {
    await pending.finish(fitted);
  } finally {
    pending.dispose();
  }
  const { changes } = await services.review.propose(document.uri, editedText(region, replacement), { createsFile: false, wasDirty: wasDirty ?? true, original: textBefore });
  return { kind: "proposed", changes, result, replacement };
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
