import * as vscode from "vscode";
import type { ChatTools } from "../chat/toolRound";
import { redactSecrets } from "../relay/redact";
import type { JsonObject } from "../relay/types";
import { createArgumentValidator } from "../tools/argumentValidation";
import type { Tool } from "../tools/toolContract";
import { ToolRegistry } from "../tools/toolRegistry";
import { toolResultText } from "./lmMessageParts";
import { relayToolNames } from "./toolNames";

// VS Code's tools (other extensions', MCP servers') for the panel's model. Only the tools the user chose
// (relayChat.externalTools.enabled) are offered, never in an untrusted workspace, under names the relay
// accepts. Each becomes a Tool of risk "external": validated against its own schema before the approval
// card, asked about every time unless the user opted in to "allow for this session" for it
// (relayChat.externalTools.allowForSession), and run through vscode.lm.invokeTool only after approval.

export const ENABLED_SETTING = "externalTools.enabled";
export const ALLOW_FOR_SESSION_SETTING = "externalTools.allowForSession";

/** An enabled tool that is not offered, and why (shown by the picker and logged). */
export interface LeftOutTool {
  name: string;
  reason: string;
}

interface Offer {
  fingerprint: string;
  tools: Tool[];
  leftOut: LeftOutTool[];
}

export class ExternalTools {
  private offer: Offer | null = null;
  private readonly registries = new WeakMap<ToolRegistry, { fingerprint: string; registry: ToolRegistry }>();

  constructor(
    /** The relay keys, removed from every result before the model, history or panel sees it. */
    private readonly secrets: () => readonly string[],
    private readonly log: (message: string) => void,
  ) {}

  /**
   * The panel's tools with the chosen external tools added. The registry is looked up at every request, so
   * choosing tools, an extension starting or stopping, or a change of trust applies to the next request of
   * an open conversation too.
   */
  extend(base: ChatTools): ChatTools {
    const registryWith = (baseRegistry: ToolRegistry) => this.registryWith(baseRegistry);
    const baseRegistry = base.registry;
    return {
      ...base,
      get registry() {
        return registryWith(baseRegistry);
      },
    };
  }

  /** The enabled tools that are offered now, and the enabled ones that are not, with why. */
  current(reservedNames: ReadonlySet<string>): { tools: Tool[]; leftOut: LeftOutTool[] } {
    const settings = vscode.workspace.getConfiguration("relayChat");
    const enabled = settings.get<string[]>(ENABLED_SETTING, []).filter((name) => typeof name === "string");
    const optedIn = new Set(settings.get<string[]>(ALLOW_FOR_SESSION_SETTING, []));
    const available = new Map(vscode.lm.tools.map((tool) => [tool.name, tool]));
    const fingerprint = JSON.stringify([vscode.workspace.isTrusted, enabled, [...optedIn], [...available.keys()], [...reservedNames]]);
    if (this.offer?.fingerprint === fingerprint) return this.offer;

    const leftOut: LeftOutTool[] = [];
    const candidates: vscode.LanguageModelToolInformation[] = [];
    for (const name of new Set(enabled)) {
      const information = available.get(name);
      if (!vscode.workspace.isTrusted) leftOut.push({ name, reason: vscode.l10n.t("this workspace is not trusted") });
      else if (!information) leftOut.push({ name, reason: vscode.l10n.t("no extension or running MCP server provides it now") });
      else candidates.push(information);
    }
    const names = relayToolNames(
      candidates.map((information) => information.name),
      reservedNames,
    );
    const checkSchema = createArgumentValidator();
    const tools: Tool[] = [];
    for (const information of candidates) {
      const parameters = schemaOf(information);
      try {
        checkSchema(parameters, information.name, { lenient: true });
      } catch (error) {
        leftOut.push({ name: information.name, reason: (error as Error).message });
        continue;
      }
      tools.push(this.toolFor(information, names.relayNameOf.get(information.name) ?? information.name, parameters, optedIn.has(information.name)));
    }
    for (const entry of leftOut) this.log(`external tool "${entry.name}" is not offered: ${entry.reason}`);
    this.offer = { fingerprint, tools, leftOut };
    return this.offer;
  }

  private registryWith(base: ToolRegistry): ToolRegistry {
    const builtinNames = new Set(base.all().map((tool) => tool.name));
    const { tools } = this.current(builtinNames);
    const fingerprint = this.offer?.fingerprint ?? "";
    const cached = this.registries.get(base);
    if (cached?.fingerprint === fingerprint) return cached.registry;
    const registry = tools.length === 0 ? base : new ToolRegistry([...base.all(), ...tools]);
    this.registries.set(base, { fingerprint, registry });
    return registry;
  }

  private toolFor(information: vscode.LanguageModelToolInformation, relayName: string, parameters: JsonObject, sessionAllowanceOptIn: boolean): Tool {
    const secrets = this.secrets;
    return {
      name: relayName,
      // The approval card shows this description: it says where the tool comes from before what it does.
      description: vscode.l10n.t('External tool "{0}" (another extension or an MCP server): {1}', information.name, information.description),
      parameters,
      risk: "external",
      sessionAllowanceOptIn,
      async run(args, signal) {
        const cancellation = new vscode.CancellationTokenSource();
        const onAbort = () => cancellation.cancel();
        signal.addEventListener("abort", onAbort, { once: true });
        try {
          const result = await vscode.lm.invokeTool(information.name, { input: args, toolInvocationToken: undefined }, cancellation.token);
          return redactSecrets(toolResultText(result.content), [...secrets()]);
        } finally {
          signal.removeEventListener("abort", onAbort);
          cancellation.dispose();
        }
      },
    };
  }
}

/** A tool without a schema takes an object with any properties, as VS Code's chat treats it. */
function schemaOf(information: vscode.LanguageModelToolInformation): JsonObject {
  const schema = information.inputSchema;
  return typeof schema === "object" && schema !== null && !Array.isArray(schema) && Object.keys(schema).length > 0 ? (schema as JsonObject) : { type: "object", properties: {} };
}
