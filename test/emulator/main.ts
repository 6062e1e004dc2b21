// Runs the relay emulator as a process for the demo and the benchmarks:
//   node --require tsx/cjs test/emulator/main.ts [--port N] [--key K] [--delta-interval-ms MS] [--profile openai|minimal|new-api|translated|openrouter|litellm|split|drops-instructions] [--no-endpoint-types] [--chat-only-models M,N] [--control]
// --chat-only-models: chat-only models of chatOnlyModels.ts this relay serves under any profile (the demo's
// deepseek-chat), each refusing /v1/responses as its relay does, so the panel offers Chat Completions for it.
// --no-endpoint-types: the new-api or split profile's model list leaves out `supported_endpoint_types`, as one-api's
// does. (With or without it, a chat-only model is found by its refusal; the panel then offers Chat Completions.)
// Prints one JSON line {"baseUrl", "key", "profile"} (plus "controlUrl" with --control, see
// controlServer.ts) and serves until SIGINT/SIGTERM.
import { startControlServer } from "./controlServer";
import { CHAT_ONLY_MODEL_IDS } from "./chatOnlyModels";
import { EMULATOR_PROFILES, isEmulatorProfile } from "./profiles";
import { startRelayEmulator } from "./server";

function argumentValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const port = argumentValue("--port");
  const key = argumentValue("--key");
  const profile = argumentValue("--profile") ?? "openai";
  if (!isEmulatorProfile(profile)) throw new Error(`--profile must be one of ${EMULATOR_PROFILES.join(", ")}; got ${JSON.stringify(profile)}`);
  const chatOnlyModels = argumentValue("--chat-only-models")?.split(",").filter(Boolean);
  const unknown = chatOnlyModels?.filter((model) => !CHAT_ONLY_MODEL_IDS.includes(model)) ?? [];
  if (unknown.length > 0) throw new Error(`--chat-only-models takes ${CHAT_ONLY_MODEL_IDS.join(", ")}; got ${unknown.join(", ")}`);
  const emulator = await startRelayEmulator({
    profile,
    ...(key ? { keys: [{ key, name: "cli" }] } : {}),
    ...(port ? { port: Number(port) } : {}),
    ...(argumentValue("--delta-interval-ms") ? { deltaIntervalMs: Number(argumentValue("--delta-interval-ms")) } : {}),
    ...(process.argv.includes("--no-endpoint-types") ? { listsEndpointTypes: false } : {}),
    ...(chatOnlyModels ? { chatOnlyModels } : {}),
  });
  const control = process.argv.includes("--control") ? await startControlServer(emulator) : null;
  process.stdout.write(`${JSON.stringify({ baseUrl: emulator.baseUrl, key: emulator.defaultKey, profile, ...(control ? { controlUrl: control.url } : {}) })}\n`);
  const stop = (): void => {
    emulator.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
