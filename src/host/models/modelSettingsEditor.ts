import * as vscode from "vscode";
import { protocolChoiceOf } from "../../chat/listOnlyProtocolChoices";
import { modelSettingsFor, readModelSettings, REASONING_EFFORTS } from "../../chat/modelSettings";
import type { ModelProtocol, ModelSettings, ModelSettingsEntry } from "../../chat/modelSettings";
import { readMaxOutputTokens, readTemperature } from "../../chat/modelSettingsInput";
import type { TypedValue } from "../../chat/modelSettingsInput";
import { saveModelSettings } from "./modelSettingsWriter";
import type { RelayConnection } from "../relays/relayConnection";

// Model settings…: for the panel's relay and model (or the one a failed turn used), one quick pick listing each
// setting with its value; picking one asks for the new value (a list, or a box that says what fits) and saves it
// to User settings at once (relayChat.modelSettings, the entry for exactly this relay and model). The list comes
// back after each change until Escape, so several settings are set in one go; Reset removes this relay's entry
// for the model. The protocol row says the wire the panel uses now, and either wire can be forced.

export interface ModelSettingsTarget {
  relay: string;
  model: string;
  /** relayChat.maxOutputTokens, said where the model has no cap of its own. */
  defaultMaxOutputTokens: () => number | null;
  /** The wire the panel's next request to the model goes over (ModelChoice.protocolOf). */
  protocolInUse: () => ModelProtocol;
}

/** Which model to edit, as a fix button or a link names it (`field`: the setting to ask for first); absent: the panel's. */
export interface ModelSettingsRequest {
  relay: string;
  model: string;
  field?: keyof ModelSettings;
}

/** Relay Chat: Model Settings… (palette, the panel's model picker, a turn's fix button): the editor for one relay and model. */
export async function openModelSettings(connection: RelayConnection, panel: { current(): string; protocolOf(relay: string, model: string): ModelProtocol }, request?: unknown): Promise<void> {
  const named = requestOf(request);
  const relay = named?.relay ?? connection.activeRelay;
  const model = named?.model ?? panel.current();
  if (relay === null || model.trim() === "") {
    void vscode.window.showWarningMessage(relay === null ? vscode.l10n.t("Add a relay first: model settings are kept per relay and model.") : vscode.l10n.t("Pick a model first: model settings are kept per relay and model."));
    return;
  }
  await editModelSettings({ relay, model, defaultMaxOutputTokens: () => connection.settings.maxOutputTokens, protocolInUse: () => panel.protocolOf(relay, model) }, named?.field);
}

type Field = keyof ModelSettings;
type Row = vscode.QuickPickItem & { field: Field | "reset" };

export async function editModelSettings(target: ModelSettingsTarget, firstField?: Field): Promise<void> {
  if (firstField) {
    const current = modelSettingsFor(savedEntries(), target.relay, target.model);
    const change = await askFor(firstField, current, target);
    if (change !== null) await saveModelSettings(target.relay, target.model, { [firstField]: change.value });
  }
  for (;;) {
    const entries = savedEntries();
    const current = modelSettingsFor(entries, target.relay, target.model);
    const everyRelay = modelSettingsFor(
      entries.filter((entry) => entry.relay === undefined),
      target.relay,
      target.model,
    );
    const picked = await vscode.window.showQuickPick(rows(current, everyRelay, target), {
      title: vscode.l10n.t("Model settings: {0} on {1}", target.model, target.relay),
      placeHolder: vscode.l10n.t("Pick a setting to change; it is saved to your User settings (relayChat.modelSettings) at once"),
    });
    if (!picked) return;
    if (picked.field === "reset") {
      await saveModelSettings(target.relay, target.model, Object.fromEntries(FIELDS.map((field) => [field, undefined])));
      continue;
    }
    const change = await askFor(picked.field, current, target);
    if (change === null) continue;
    await saveModelSettings(target.relay, target.model, { [picked.field]: change.value });
  }
}

/** The User setting as saved now: read again after each change, before the connection has re-read its settings. */
function savedEntries(): ModelSettingsEntry[] {
  return readModelSettings(vscode.workspace.getConfiguration("relayChat").inspect<unknown>("modelSettings")?.globalValue).entries;
}

const FIELDS: readonly Field[] = ["reasoningEffort", "temperature", "maxOutputTokens", "sendTools", "instructions", "protocol"];

function rows(current: ModelSettings, everyRelay: ModelSettings, target: ModelSettingsTarget): Row[] {
  const notSet = vscode.l10n.t("not sent (the model's default)");
  const fromEveryRelay = (field: Field) => (everyRelay[field] !== undefined && everyRelay[field] === current[field] ? vscode.l10n.t("from the entry for every relay") : undefined);
  const cap = target.defaultMaxOutputTokens();
  const instructions = current.instructions?.trim() ?? "";
  const list: Row[] = [
    { field: "reasoningEffort", label: vscode.l10n.t("Reasoning effort: {0}", current.reasoningEffort ?? notSet), description: fromEveryRelay("reasoningEffort") },
    { field: "temperature", label: vscode.l10n.t("Temperature: {0}", current.temperature ?? notSet), description: fromEveryRelay("temperature") },
    {
      field: "maxOutputTokens",
      label: vscode.l10n.t("Max output tokens: {0}", current.maxOutputTokens ?? (cap === null ? vscode.l10n.t("not sent (the relay decides)") : vscode.l10n.t("{0} (relayChat.maxOutputTokens)", cap))),
      description: fromEveryRelay("maxOutputTokens"),
    },
    { field: "sendTools", label: current.sendTools === false ? vscode.l10n.t("Tools: not sent") : vscode.l10n.t("Tools: sent"), description: fromEveryRelay("sendTools") },
    {
      field: "instructions",
      label: vscode.l10n.t("Instructions: {0}", instructions === "" ? vscode.l10n.t("none") : oneLine(instructions)),
      description: fromEveryRelay("instructions"),
      detail: vscode.l10n.t("Sent after your instructions and the relay's, before the project rules"),
    },
    {
      field: "protocol",
      // The wire in use: as saved for this model (what the next request uses once the setting is read again), else as
      // the panel uses it now (a confirmation after a refusal counts before its setting is read back).
      label: vscode.l10n.t("Protocol: {0}", (current.protocol ?? target.protocolInUse()) === "chat" ? "Chat Completions (/v1/chat/completions)" : "Responses (/v1/responses)"),
      description: fromEveryRelay("protocol") ?? (current.protocol === undefined ? vscode.l10n.t("the default; a relay's model list does not change it") : undefined),
    },
  ];
  list.push({ field: "reset", label: vscode.l10n.t("Reset"), detail: vscode.l10n.t("Remove what is set for {0} on {1}; an entry for every relay stays", target.model, target.relay) });
  return list;
}

/** The new value of `field` (undefined: remove it), or null when the person cancelled. */
async function askFor(field: Field, current: ModelSettings, target: ModelSettingsTarget): Promise<{ value: unknown } | null> {
  switch (field) {
    case "reasoningEffort": {
      const choices = [{ label: vscode.l10n.t("Not sent (the model's default)"), value: undefined as string | undefined }, ...REASONING_EFFORTS.map((effort) => ({ label: effort, value: effort as string | undefined }))];
      const picked = await vscode.window.showQuickPick(
        choices.map((choice) => ({ ...choice, description: choice.value === current.reasoningEffort ? vscode.l10n.t("current") : undefined })),
        { title: vscode.l10n.t("Reasoning effort for {0}", target.model), placeHolder: vscode.l10n.t("A model without reasoning refuses any effort: pick \"Not sent\" for it") },
      );
      return picked ? { value: picked.value } : null;
    }
    case "temperature":
      return typed(vscode.l10n.t("Temperature for {0} (0 to 2; empty: not sent)", target.model), current.temperature, readTemperature);
    case "maxOutputTokens":
      return typed(vscode.l10n.t("Max output tokens for {0} (empty: relayChat.maxOutputTokens)", target.model), current.maxOutputTokens, readMaxOutputTokens);
    case "sendTools": {
      const picked = await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t("Send tools"), value: undefined as boolean | undefined },
          { label: vscode.l10n.t("Send no tools"), detail: vscode.l10n.t("For a model or channel that rejects requests with tools; the model can then only answer"), value: false as boolean | undefined },
        ],
        { title: vscode.l10n.t("Tools for {0}", target.model) },
      );
      return picked ? { value: picked.value } : null;
    }
    case "instructions": {
      const text = await vscode.window.showInputBox({
        title: vscode.l10n.t("Instructions for {0}", target.model),
        prompt: vscode.l10n.t("Sent to this model on {0}; empty removes them. Longer text: edit relayChat.modelSettings in settings.json.", target.relay),
        value: current.instructions ?? "",
      });
      return text === undefined ? null : { value: text.trim() === "" ? undefined : text };
    }
    case "protocol": {
      // Written either way, so it also overrides an entry for every relay.
      const inUse = current.protocol ?? target.protocolInUse();
      const picked = await vscode.window.showQuickPick(
        [
          { label: "Responses", description: "/v1/responses", value: "responses" as ModelProtocol },
          { label: "Chat Completions", description: "/v1/chat/completions", detail: vscode.l10n.t("For a model the relay offers only through Chat Completions"), value: "chat" as ModelProtocol },
        ].map((choice) => (choice.value === inUse ? { ...choice, description: `${choice.description} · ${vscode.l10n.t("in use")}` } : choice)),
        { title: vscode.l10n.t("Protocol for {0}", target.model) },
      );
      return picked ? { value: picked.value } : null;
    }
  }
}

async function typed(title: string, current: number | undefined, read: (text: string) => TypedValue): Promise<{ value: unknown } | null> {
  const text = await vscode.window.showInputBox({
    title,
    value: current === undefined ? "" : String(current),
    validateInput: (value) => {
      const result = read(value);
      return result.ok ? null : result.problem;
    },
  });
  if (text === undefined) return null;
  const result = read(text);
  return result.ok ? { value: result.value } : null;
}

function requestOf(value: unknown): ModelSettingsRequest | null {
  const choice = protocolChoiceOf(value);
  if (choice === null) return null;
  const field = (value as Record<string, unknown>).field;
  return { ...choice, ...(typeof field === "string" && (FIELDS as readonly string[]).includes(field) ? { field: field as Field } : {}) };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}
