import { readFile } from "node:fs/promises";
import { modelSettingsFor, readModelSettings, REASONING_EFFORTS } from "../chat/modelSettings";
import type { ModelSettings, ReasoningEffort } from "../chat/modelSettings";
import type { InstructionsAs } from "../relay/requestBuilder";

// The per-model settings `relay-chat ask` sends with, as the panel does: from `--model-settings FILE` (a
// relayChat.modelSettings list, or a settings object holding one), the entries for the model on every relay
// and on `--relay NAME`; then --reasoning-effort and --temperature on top. Bad input stops with a sentence
// saying what to fix, before anything is sent.

export interface CliModelSettingsFlags {
  file?: string;
  relay?: string;
  reasoningEffort?: string;
  temperature?: string;
  instructionsAs?: string;
}

export interface CliModelSettings {
  settings: ModelSettings;
  instructionsAs: InstructionsAs;
}

/** The settings for `model`; throws an Error whose message names the flag and what it takes. */
export async function cliModelSettings(flags: CliModelSettingsFlags, model: string): Promise<CliModelSettings> {
  let settings: ModelSettings = {};
  if (flags.file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(flags.file, "utf8"));
    } catch (error) {
      throw new Error(`--model-settings ${flags.file}: ${(error as Error).message}`);
    }
    const list = Array.isArray(parsed) ? parsed : typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>)["relayChat.modelSettings"] : undefined;
    if (!Array.isArray(list)) throw new Error(`--model-settings ${flags.file}: expected a list like [{"model": "gpt-5", "reasoningEffort": "low"}], or an object with "relayChat.modelSettings".`);
    const read = readModelSettings(list);
    if (read.problems.length > 0) throw new Error(`--model-settings ${flags.file}: ${read.problems.join(" ")}`);
    settings = modelSettingsFor(read.entries, flags.relay ?? "", model);
  }
  if (flags.reasoningEffort !== undefined) {
    if (!(REASONING_EFFORTS as readonly string[]).includes(flags.reasoningEffort)) throw new Error(`--reasoning-effort takes one of ${REASONING_EFFORTS.join(", ")}, got ${JSON.stringify(flags.reasoningEffort)}.`);
    settings = { ...settings, reasoningEffort: flags.reasoningEffort as ReasoningEffort };
  }
  if (flags.temperature !== undefined) {
    const temperature = Number(flags.temperature);
    if (flags.temperature.trim() === "" || !Number.isFinite(temperature) || temperature < 0 || temperature > 2) throw new Error(`--temperature takes a number from 0 to 2, got ${JSON.stringify(flags.temperature)}.`);
    settings = { ...settings, temperature };
  }
  const instructionsAs = flags.instructionsAs ?? "instructions";
  if (instructionsAs !== "instructions" && instructionsAs !== "developer") throw new Error(`--instructions-as takes "instructions" or "developer", got ${JSON.stringify(flags.instructionsAs)}.`);
  return { settings, instructionsAs };
}
