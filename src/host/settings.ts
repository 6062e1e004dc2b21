import * as vscode from "vscode";
import { resolveRelayProfiles } from "../relay/relayProfiles";
import type { RelayProfile } from "../relay/relayProfiles";
import { DEFAULT_REQUEST_ID_HEADERS } from "../relay/requestId";
import type { CompactionSettings } from "../chat/compaction";
import { DEFAULT_COMPACTION_SETTINGS } from "../chat/compaction";
import { readModelSettings } from "../chat/modelSettings";
import type { ModelSettingsEntry } from "../chat/modelSettings";

/** The `relayChat.*` settings, read in one place. The key is never among them. */
export interface RelayChatSettings {
  /**
   * As read: relayChat.baseUrl (else RELAY_CHAT_BASE_URL), the single relay of earlier versions, one of
   * `relays`. RelayConnection.settings holds the active relay's address here.
   */
  baseUrl: string;
  /** Every relay: relayChat.relays, then the single base URL named after its host. */
  relays: RelayProfile[];
  /** Why entries of relayChat.relays were skipped, one sentence each. */
  relayProblems: string[];
  /** relayChat.modelSettings (User settings only): per relay and model protocol, sampling, tools, instructions. */
  modelSettings: ModelSettingsEntry[];
  /** Why entries or fields of relayChat.modelSettings were skipped, one sentence each. */
  modelSettingsProblems: string[];
  model: string;
  stream: boolean;
  maxOutputTokens: number | null;
  requestIdHeaders: string[];
  idleTimeoutMs: number;
  /** How long a stream may go without content while keep-alives keep it open (relayChat.contentTimeoutSeconds). */
  contentTimeoutMs: number;
  nonStreamTimeoutMs: number;
  maxStreamBytes: number;
  /** Non-secret headers for every request; RelayClient refuses secret-looking ones with a message. */
  extraHeaders: Record<string, unknown>;
  /** Explicit proxy: relayChat.proxy, else VS Code's http.proxy; empty means the environment decides. */
  proxyUrl: string;
  strictSsl: boolean;
  /** Turned off at any level (user, workspace, folder): a workspace can add to the list, never take from it. */
  disabledTools: string[];
  /** Secret-looking variables run_command may still pass (application scope: User settings only, never a workspace). */
  commandEnvironmentAllow: string[];
  maxToolResultChars: number;
  commandTimeoutMs: number;
  toolRoundCap: number;
  historyWarningTokens: number;
  /** relayChat.spendWarning, in the model's price currency; null when unset. */
  spendWarningAmount: number | null;
  /** relayChat.compaction.*: when the panel offers a summary of earlier turns, and whether it may make one unasked. */
  compaction: CompactionSettings;
}

export function readSettings(): RelayChatSettings {
  const config = vscode.workspace.getConfiguration("relayChat");
  const http = vscode.workspace.getConfiguration("http");
  // Environment variables override for the demo and for CI, where settings.json is throwaway.
  const baseUrl = config.get<string>("baseUrl", "").trim() || process.env.RELAY_CHAT_BASE_URL?.trim() || "";
  const maxOutputTokens = config.get<number | null>("maxOutputTokens", null);
  const extraHeaders = config.get<Record<string, unknown>>("extraHeaders", {});
  const relays = resolveRelayProfiles({
    relays: config.get<unknown>("relays", []),
    baseUrl: config.get<string>("baseUrl", ""),
    extraHeaders,
    consoleUrl: config.get<string>("consoleUrl", ""),
    environmentBaseUrl: process.env.RELAY_CHAT_BASE_URL ?? "",
  });
  const modelSettings = readModelSettings(userValue(config, "modelSettings"));
  return {
    baseUrl,
    modelSettings: modelSettings.entries,
    modelSettingsProblems: modelSettings.problems,
    relays: relays.profiles,
    relayProblems: relays.problems,
    model: config.get<string>("model", "").trim() || process.env.RELAY_CHAT_MODEL?.trim() || "",
    stream: config.get<boolean>("stream", true),
    maxOutputTokens: typeof maxOutputTokens === "number" && maxOutputTokens > 0 ? maxOutputTokens : null,
    requestIdHeaders: config.get<string[]>("requestIdHeaders", [...DEFAULT_REQUEST_ID_HEADERS]),
    idleTimeoutMs: Math.max(1, config.get<number>("idleTimeoutSeconds", 120)) * 1000,
    contentTimeoutMs: Math.max(1, config.get<number>("contentTimeoutSeconds", 600)) * 1000,
    nonStreamTimeoutMs: Math.max(1, config.get<number>("nonStreamTimeoutSeconds", 600)) * 1000,
    maxStreamBytes: Math.max(1, config.get<number>("maxStreamMegabytes", 64)) * 1024 * 1024,
    extraHeaders,
    proxyUrl: config.get<string>("proxy", "").trim() || http.get<string>("proxy", "").trim(),
    strictSsl: http.get<boolean>("proxyStrictSSL", true),
    disabledTools: disabledEverywhere(config),
    commandEnvironmentAllow: stringList(config.get<unknown>("tools.commandEnvironment.allow", [])),
    maxToolResultChars: config.get<number>("tools.maxResultCharacters", 20_000),
    commandTimeoutMs: Math.max(1, config.get<number>("tools.commandTimeoutSeconds", 60)) * 1000,
    toolRoundCap: Math.max(1, config.get<number>("toolRoundCap", 10)),
    historyWarningTokens: Math.max(0, config.get<number>("historyWarningTokens", 50_000)),
    spendWarningAmount: positiveNumberOrNull(config.get<unknown>("spendWarning", null)),
    compaction: {
      thresholdPercent: Math.min(100, Math.max(1, config.get<number>("compaction.thresholdPercent", DEFAULT_COMPACTION_SETTINGS.thresholdPercent))),
      keepTurns: Math.max(1, config.get<number>("compaction.keepTurns", DEFAULT_COMPACTION_SETTINGS.keepTurns)),
      // Read for every request (the session's settings are read again per send), never cached.
      withoutAsking: config.get<boolean>("compaction.withoutAsking", false) === true,
    },
  };
}

export function affectsRelaySettings(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration("relayChat") || event.affectsConfiguration("http.proxy") || event.affectsConfiguration("http.proxyStrictSSL");
}

/**
 * VS Code gives the most specific value, so a workspace's `[]` would switch back on a tool the user turned off.
 * The union of every level keeps a tool the user disabled disabled in any folder.
 */
function disabledEverywhere(config: vscode.WorkspaceConfiguration): string[] {
  const levels = config.inspect<unknown>("tools.disabled");
  const values = [levels?.globalValue, levels?.workspaceValue, levels?.workspaceFolderValue].flatMap(stringList);
  return [...new Set(values)].sort();
}

/** An application-scoped setting's User value: a workspace's value is never read, even if one is written there. */
function userValue(config: vscode.WorkspaceConfiguration, key: string): unknown {
  return config.inspect<unknown>(key)?.globalValue;
}

function positiveNumberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}
