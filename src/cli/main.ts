import { parseArgs } from "node:util";
import * as l10n from "@vscode/l10n";
import { RelayClient, RelayConfigurationError } from "../relay/client";
import { checkBillingNote, checkConnection } from "../relay/connectionCheck";
import { connectionReportLines } from "../relay/connectionReport";
import { checkInstructions, instructionsCheckNote } from "../relay/instructionsCheck";
import type { PriceSettingEntry } from "../relay/priceSetting";
import { RELAY_KINDS, isRelayKind } from "../relay/relayKind";
import { runAsk } from "./askCommand";
import { cliInstructions } from "./cliInstructions";
import { cliModelSettings } from "./cliModelSettings";
import type { CliModelSettings } from "./cliModelSettings";
import type { CliOutput } from "./askCommand";
import { runBalance } from "./balanceCommand";
import { cliPriceOf, readPricesFile } from "./cliPrices";
import { USAGE, commandHelp, isCommandName } from "./cliUsage";
import { CLI_WORDING } from "./cliWording";


const output: CliOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

export async function main(argv: string[], environment: NodeJS.ProcessEnv): Promise<number> {
  l10n.config({ contents: { ...CLI_WORDING } });
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    // `relay-chat help ask` is `relay-chat ask --help`.
    const about = command === "help" ? rest[0] : undefined;
    output.stdout(`${about !== undefined && isCommandName(about) ? commandHelp(about) : USAGE}\n`);
    return command ? 0 : 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        "base-url": { type: "string" },
        model: { type: "string" },
        protocol: { type: "string" },
        "no-stream": { type: "boolean", default: false },
        "max-output-tokens": { type: "string" },
        "idle-timeout": { type: "string" },
        "content-timeout": { type: "string" },
        "non-stream-timeout": { type: "string" },
        header: { type: "string", multiple: true },
        json: { type: "boolean", default: false },
        kind: { type: "string" },
        prices: { type: "string" },
        system: { type: "string" },
        "model-settings": { type: "string" },
        relay: { type: "string" },
        "reasoning-effort": { type: "string" },
        temperature: { type: "string" },
        "instructions-as": { type: "string" },
        "no-rules": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    output.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const values = parsed.values;
  if (values.help) {
    output.stdout(`${isCommandName(command) ? commandHelp(command) : USAGE}\n`);
    return 0;
  }
  const idleSeconds = values["idle-timeout"] ? Number(values["idle-timeout"]) : null;
  const contentSeconds = values["content-timeout"] ? Number(values["content-timeout"]) : null;
  const nonStreamSeconds = values["non-stream-timeout"] ? Number(values["non-stream-timeout"]) : null;
  const maxOutputTokens = values["max-output-tokens"] ? Number(values["max-output-tokens"]) : null;
  const badSeconds = [idleSeconds, contentSeconds, nonStreamSeconds].some((seconds) => seconds !== null && !(seconds > 0));
  if (badSeconds || (maxOutputTokens !== null && !(Number.isInteger(maxOutputTokens) && maxOutputTokens > 0))) {
    output.stderr("--idle-timeout, --content-timeout, --non-stream-timeout and --max-output-tokens take positive numbers.\n");
    return 2;
  }
  const protocol = values.protocol ?? "responses";
  if (protocol !== "responses" && protocol !== "chat") {
    // Said before anything is sent.
    output.stderr(`--protocol takes chat or responses, got ${JSON.stringify(protocol)}.\n`);
    return 2;
  }
  const kind = values.kind ?? null;
  if (kind !== null && !isRelayKind(kind)) {
    output.stderr(`--kind takes one of ${RELAY_KINDS.join(", ")}, got ${JSON.stringify(kind)}.\n`);
    return 2;
  }
  let priceEntries: PriceSettingEntry[] = [];
  try {
    if (values.prices) priceEntries = await readPricesFile(values.prices);
  } catch (error) {
    output.stderr(`${(error as Error).message}\n`);
    return 2;
  }
  const extraHeaders: Record<string, string> = {};
  for (const header of values.header ?? []) {
    const colon = header.indexOf(":");
    if (colon <= 0) {
      output.stderr(`--header takes "NAME: VALUE", got ${JSON.stringify(header)}.\n`);
      return 2;
    }
    extraHeaders[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  let client: RelayClient;
  try {
    client = new RelayClient({
      baseUrl: values["base-url"] ?? environment.RELAY_CHAT_BASE_URL,
      apiKey: environment.RELAY_CHAT_API_KEY,
      idleTimeoutMs: idleSeconds ? idleSeconds * 1000 : undefined,
      contentTimeoutMs: contentSeconds ? contentSeconds * 1000 : undefined,
      nonStreamTimeoutMs: nonStreamSeconds ? nonStreamSeconds * 1000 : undefined,
      extraHeaders,
      userAgent: "relay-chat-cli",
    });
  } catch (error) {
    if (error instanceof RelayConfigurationError) {
      output.stderr(`${error.message}${error.problem === "address" ? " Pass --base-url or set RELAY_CHAT_BASE_URL." : error.problem === "headers" ? " (from --header)" : ""}\n`);
      return 2;
    }
    throw error;
  }
  const abort = new AbortController();
  process.once("SIGINT", () => abort.abort());
  try {
    switch (command) {
      case "ask": {
        // The prompt from the arguments, or piped in (`echo … | relay-chat ask --model m`, or `-` for standard input).
        const fromStdin = parsed.positionals.length === 0 ? !process.stdin.isTTY : parsed.positionals.length === 1 && parsed.positionals[0] === "-";
        const prompt = fromStdin ? (await readStandardInput()).trim() : parsed.positionals.join(" ");
        if (!values.model || !prompt) {
          output.stderr(`ask needs --model and a prompt (as arguments, or piped to standard input).\n\n${commandHelp("ask")}\n`);
          return 2;
        }
        // Asked beside the request, not before it: the answer is never kept waiting for a price list.
        let modelSettings: CliModelSettings;
        try {
          modelSettings = await cliModelSettings({ file: values["model-settings"], relay: values.relay, reasoningEffort: values["reasoning-effort"], temperature: values.temperature, instructionsAs: values["instructions-as"] }, values.model);
        } catch (error) {
          output.stderr(`${(error as Error).message}\n`);
          return 2;
        }
        const price = cliPriceOf(client, values.model, priceEntries, kind, abort.signal);
        const instructions = await cliInstructions({
          cwd: process.cwd(),
          system: values.system ?? "",
          modelInstructions: modelSettings.settings.instructions ? { model: values.model, text: modelSettings.settings.instructions } : null,
          rules: !values["no-rules"],
          locale: Intl.DateTimeFormat().resolvedOptions().locale,
          shell: environment.SHELL ?? environment.ComSpec ?? "",
          // The key never goes to the model inside a rules file or --system text.
          secrets: [environment.RELAY_CHAT_API_KEY],
        });
        // --max-output-tokens is said on this command line: it wins over the file's cap.
        const budget = maxOutputTokens ?? modelSettings.settings.maxOutputTokens ?? null;
        // --protocol wins over the file's protocol, as --max-output-tokens over its cap.
        const wire = values.protocol ? protocol : (modelSettings.settings.protocol ?? "responses");
        return await runAsk(client, { model: values.model, protocol: wire, prompt, stream: !values["no-stream"], maxOutputTokens: budget, json: values.json === true, price, instructions, modelSettings: modelSettings.settings, instructionsAs: modelSettings.instructionsAs }, output, abort.signal);
      }
      case "models": {
        const result = await client.listModels({ signal: abort.signal });
        if (values.json) output.stdout(`${JSON.stringify(result.ok ? { ok: true, models: result.models.map((model) => model.id), requestId: result.requestId } : { ok: false, outcome: result.outcome.kind, cause: result.cause, message: result.explanation, requestId: result.requestId })}\n`);
        else if (result.ok) output.stdout(`${result.models.map((model) => model.id).join("\n")}\n`);
        else output.stderr(`${result.explanation}\nrequest id ${result.requestId ?? "(none)"}\n`);
        return result.ok ? 0 : 1;
      }
      case "check": {
        if (!values.model) {
          output.stderr("check needs --model.\n");
          return 2;
        }
        output.stdout(`${checkBillingNote()} ${instructionsCheckNote()}\n`);
        const report = await checkConnection(client, values.model, { signal: abort.signal, ...(values.protocol ? { protocol } : {}) });
        // Whether the relay passes the instructions on, once it is known to answer over Responses (src/relay/instructionsCheck.ts);
        // over Chat Completions they always go as the system message.
        if (report.ok && protocol !== "chat" && report.protocolFinding !== "chat") report.steps.push(...(await checkInstructions(client, values.model, { signal: abort.signal })).steps);
        for (const line of connectionReportLines(report)) output.stdout(`${line}\n`);
        return report.ok ? 0 : 1;
      }
      case "balance":
        return await runBalance(client, { json: values.json === true, kind }, output, abort.signal);
      default:
        output.stderr(`Unknown command "${command}".\n\n${USAGE}\n`);
        return 2;
    }
  } finally {
    await client.close();
  }
}

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

if (require.main === module) {
  main(process.argv.slice(2), process.env).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      output.stderr(`relay-chat: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
