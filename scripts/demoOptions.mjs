// The options of `npm run demo` (scripts/demo.mjs), read before anything is installed or started: --help prints
// them and exits, and a mistyped option stops the demo with what went wrong instead of being ignored.
import { parseArgs } from "node:util";

export const DEMO_USAGE = `Usage: npm run demo [-- OPTIONS]

Opens Relay Chat in a real VS Code in the browser (code-server on 127.0.0.1), pointed at a local relay
emulator with demo models and a second, OpenRouter-like relay. The first run installs code-server into
.vscode-test/ (3 to 5 minutes). Ctrl-C stops it and removes the throwaway profile.

Options (after --):
  --port N          serve VS Code on port N (default 8080, or a free one when it is taken)
  --relay-port N    the demo relay emulator on port N and the second relay on N+1 (default: free ones),
                    so the command line can use a known address: RELAY_CHAT_BASE_URL=http://127.0.0.1:N/v1
  --profile P       the kind of relay the emulator behaves like: openai (default), minimal, new-api,
                    translated (a gateway that translates to Chat Completions), split, drops-instructions
  --fresh           as a newcomer meets it: no relay set, the setup screen and the Get Started walkthrough;
                    the emulator's address and key are printed to enter there
  --locale zh-cn    VS Code's display language Chinese (Simplified): Relay Chat in Chinese
  --screenshot      a self-check that exits by itself: sends messages in headless Chromium (/commit,
                    the Chat Completions and thinking models), checks the answers, and saves
                    test-results/demo*.png (with --fresh: test-results/demo-fresh.png)
  -h, --help        print this help and exit

With RELAY_CHAT_BASE_URL and RELAY_CHAT_API_KEY set, the demo uses that relay instead of the emulator.
More: docs/install-and-setup.md#the-demo`;

const OPTIONS = {
  port: { type: "string" },
  "relay-port": { type: "string" },
  profile: { type: "string" },
  fresh: { type: "boolean" },
  locale: { type: "string" },
  screenshot: { type: "boolean" },
  help: { type: "boolean", short: "h" },
};

/**
 * The demo's options from its arguments: `{ help: true }`, `{ problem }` (a sentence saying what is wrong), or
 * the options, with the ports as numbers.
 */
export function parseDemoOptions(args) {
  let values;
  try {
    ({ values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  const port = portOf("--port", values.port, 65535);
  if (typeof port === "string") return { problem: port };
  const relayPort = portOf("--relay-port", values["relay-port"], 65534);
  if (typeof relayPort === "string") return { problem: relayPort };
  return { port, relayPort, profile: values.profile, fresh: values.fresh === true, locale: values.locale, screenshot: values.screenshot === true };
}

/** The port a value names, undefined when none is given, or why the value is not one. */
function portOf(name, value, highest) {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > highest) return `${name} takes a port number from 1 to ${highest}, got ${JSON.stringify(value)}.`;
  return port;
}
