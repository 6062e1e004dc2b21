import { parseArgs } from "node:util";
import { RelayClient, RelayConfigurationError } from "../relay/client";
import { checkConnection } from "../relay/connectionCheck";
import { runAsk } from "./askCommand";
import type { CliOutput } from "./askCommand";

const USAGE = `Usage:
  relay-chat ask --base-url URL --model ID [--no-stream] [--max-output-tokens N] [--idle-timeout SECONDS] [--json] PROMPT
  relay-chat models --base-url URL [--json]
  relay-chat check --base-url URL --model ID

The API key is read from the RELAY_CHAT_API_KEY environment variable only (never a flag, so it stays out
of shell history). The base URL may also come from RELAY_CHAT_BASE_URL. Proxies: HTTPS_PROXY, HTTP_PROXY, NO_PROXY.`;

const output: CliOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

export async function main(argv: string[], environment: NodeJS.ProcessEnv): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    output.stdout(`${USAGE}\n`);
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
        "no-stream": { type: "boolean", default: false },
        "max-output-tokens": { type: "string" },
        "idle-timeout": { type: "string" },
        json: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    output.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const values = parsed.values;
  const idleSeconds = values["idle-timeout"] ? Number(values["idle-timeout"]) : null;
  const maxOutputTokens = values["max-output-tokens"] ? Number(values["max-output-tokens"]) : null;
  if ((idleSeconds !== null && !(idleSeconds > 0)) || (maxOutputTokens !== null && !(Number.isInteger(maxOutputTokens) && maxOutputTokens > 0))) {
    output.stderr("--idle-timeout and --max-output-tokens take positive numbers.\n");
    return 2;
  }
  let client: RelayClient;
  try {
    client = new RelayClient({
      baseUrl: values["base-url"] ?? environment.RELAY_CHAT_BASE_URL,
      apiKey: environment.RELAY_CHAT_API_KEY,
      idleTimeoutMs: idleSeconds ? idleSeconds * 1000 : undefined,
      userAgent: "relay-chat-cli",
    });
  } catch (error) {
    if (error instanceof RelayConfigurationError) {
      output.stderr(`${error.message}${error.problem === "address" ? " Pass --base-url or set RELAY_CHAT_BASE_URL." : ""}\n`);
      return 2;
    }
    throw error;
  }
  const abort = new AbortController();
  process.once("SIGINT", () => abort.abort());
  try {
    switch (command) {
      case "ask": {
        const prompt = parsed.positionals.join(" ");
        if (!values.model || !prompt) {
          output.stderr(`ask needs --model and a prompt.\n\n${USAGE}\n`);
          return 2;
        }
        return await runAsk(client, { model: values.model, prompt, stream: !values["no-stream"], maxOutputTokens, json: values.json === true }, output, abort.signal);
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
        const report = await checkConnection(client, values.model, { signal: abort.signal });
        for (const step of report.steps) output.stdout(`${step.warning ? "warn" : step.ok ? "ok  " : "FAIL"}  ${step.name}: ${step.detail}\n`);
        output.stdout(report.ok ? "The relay looks usable.\n" : "The relay check failed; see the lines marked FAIL.\n");
        return report.ok ? 0 : 1;
      }
      default:
        output.stderr(`Unknown command "${command}".\n\n${USAGE}\n`);
        return 2;
    }
  } finally {
    await client.close();
  }
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
