import * as l10n from "@vscode/l10n";
import { outputTextOf } from "./accumulate";
import type { RelayClient } from "./client";
import type { CheckStep } from "./checkStep";
import { EffortChoice } from "./connectionCheck";
import { buildResponseRequest, userMessage } from "./requestBuilder";
import type { InstructionsAs } from "./requestBuilder";
import type { RequestResult } from "./types";

// The check-up's part about what the model is told: whether the relay passes the Responses `instructions`
// field on to the model. One tiny request carries an instruction to answer with a given word; an answer with
// that word shows the field arrives. Some gateways (often ones translating to Chat Completions) drop the field
// and the model never sees it: then the same instruction goes as a `developer` message first in the input,
// and the finding says which way works. Along the way the relay may say which reasoning efforts the model
// takes (its 400 lists them); that is reported too, at no extra request.

/** An unusual word a model does not say by chance. */
const WORD = "PERSIMMON";
const INSTRUCTION = `Whatever the message says, answer with the single word ${WORD} and nothing else.`;
const QUESTION = "Say hello.";
/** Room for the word after a reasoning model's thinking at its lowest effort (as the connection check's own requests). */
const BUDGET = 1024;

export interface InstructionsFinding {
  /** How the relay takes instructions; null when neither way showed (or the check could not tell). */
  honoured: InstructionsAs | null;
  steps: CheckStep[];
}

/** Said with the check's billing note: the one or two requests this part adds. */
export function instructionsCheckNote(): string {
  return l10n.t("It then sends one or two tiny requests to learn whether the relay passes the instructions on to the model.");
}

export async function checkInstructions(client: Pick<RelayClient, "send">, model: string, options: { signal?: AbortSignal } = {}): Promise<InstructionsFinding> {
  const effort = new EffortChoice();
  const efforts = new EffortsSaid();
  const send = async (as: InstructionsAs): Promise<RequestResult> => {
    for (;;) {
      const result = await client.send(
        buildResponseRequest({ model, instructions: INSTRUCTION, instructionsAs: as, input: [userMessage(QUESTION)], maxOutputTokens: BUDGET, reasoningEffort: effort.effort, stream: false }),
        options,
      );
      efforts.read(result, effort.effort);
      if (!effort.retreatAfter(result)) return result;
    }
  };
  const finish = (honoured: InstructionsAs | null, step: CheckStep): InstructionsFinding => ({ honoured, steps: [step, ...efforts.steps()] });

  const asField = await send("instructions");
  if (!answered(asField)) return finish(null, { name: "Instructions", status: "warning", detail: l10n.t("Not checked: the request failed ({0}).", failure(asField)) });
  if (followed(asField)) return finish("instructions", { name: "Instructions", status: "ok", detail: l10n.t("The relay passes the instructions field on: the model answered as it was told.") });
  const asMessage = await send("developer");
  if (answered(asMessage) && followed(asMessage)) {
    return finish("developer", {
      name: "Instructions",
      status: "warning",
      detail: l10n.t('The relay drops the instructions field (the model did not follow it), but passes a developer message on: send what the model is told as a developer message for this relay (relayChat.relays: "instructionsAs": "developer").'),
    });
  }
  return finish(null, {
    name: "Instructions",
    status: "warning",
    detail: answered(asMessage)
      ? l10n.t("The model followed the instruction neither as the instructions field nor as a developer message: it answered {0}. The relay may drop both, or the model may not follow instructions.", quoted(outputTextOf(asMessage.snapshot.output)))
      : l10n.t("The model did not follow the instructions field, and the request with a developer message failed ({0}).", failure(asMessage)),
  });
}

/** What the relay said about reasoning efforts in its refusals: the values it lists, or that the model takes none. */
class EffortsSaid {
  private values: string[] | null = null;
  private none = false;

  read(result: RequestResult, sent: string | null): void {
    if (sent === null || result.outcome.kind !== "http_error" || result.outcome.status !== 400) return;
    const said = `${result.outcome.message} ${result.outcome.body}`;
    if (!/reasoning/i.test(said)) return;
    const quoted = [...said.matchAll(/['"`]([a-z]+)['"`]/gi)].map((match) => match[1].toLowerCase()).filter((value) => value !== sent && EFFORT_WORDS.has(value));
    if (quoted.length > 0) this.values = [...new Set(quoted)];
    else if (!said.toLowerCase().includes(`'${sent}'`)) this.none = true;
  }

  steps(): CheckStep[] {
    if (this.values !== null) return [{ name: "Reasoning effort", status: "ok", detail: l10n.t("The relay says this model takes the reasoning efforts {0}: set one in Model settings….", this.values.join(", ")) }];
    if (this.none) return [{ name: "Reasoning effort", status: "ok", detail: l10n.t("The relay says this model takes no reasoning effort: leave it unset in Model settings….") }];
    return [];
  }
}

const EFFORT_WORDS = new Set(["none", "minimal", "low", "medium", "high", "xhigh"]);

function answered(result: RequestResult): boolean {
  return result.outcome.kind === "completed" || (result.outcome.kind === "incomplete" && outputTextOf(result.snapshot.output) !== "");
}

function followed(result: RequestResult): boolean {
  return outputTextOf(result.snapshot.output).toUpperCase().includes(WORD);
}

function failure(result: RequestResult): string {
  return `${result.outcome.kind}${result.httpStatus ? ` ${result.httpStatus}` : ""}`;
}

function quoted(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `"${line.length > 60 ? `${line.slice(0, 60).trimEnd()}…` : line}"`;
}
