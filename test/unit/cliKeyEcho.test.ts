import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { runCli } from "../support/cliProcess";

// A relay that echoes the key JSON-escaped ("\u0073k-…", "\/") in every answer: the key is only the key once the
// JSON is decoded, so redacting the raw text alone let it through (issue 27). No output of the CLI may carry it.

const KEY = "sk-echo/escaped-0123456789abcdef";

/** The key as JSON may spell it: every character as \uXXXX, and the slash as \/. */
const escapedKey = [...KEY].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const slashEscapedKey = KEY.replace("/", "\\/");

function answerFor(url: string): string {
  if (url.includes("/models")) return `{"object":"list","data":[{"id":"echo","owned_by":"${escapedKey}"},{"id":"m-${slashEscapedKey}"}]}`;
  if (url.includes("/api/usage/token")) return `{"code":false,"message":"token ${escapedKey} is not valid"}`;
  if (url.includes("/key/info")) return `{"key":"${escapedKey}","info":{"spend":"${slashEscapedKey}","max_budget":null,"key_name":"${escapedKey}"}}`;
  if (url.includes("/dashboard/billing")) return `{"error":{"message":"key ${slashEscapedKey} has no billing","type":"invalid_request_error"}}`;
  if (url.includes("/pricing")) return `{"success":false,"message":"no prices for ${escapedKey}"}`;
  return `{"error":{"message":"Incorrect API key provided: ${escapedKey} (${slashEscapedKey})","type":"invalid_request_error","code":"invalid_api_key"}}`;
}

describe("CLI: a relay that echoes the key JSON-escaped", function () {
  this.timeout(60_000);
  let server: ReturnType<typeof createServer>;
  let baseUrl = "";
  before(async () => {
    server = createServer((request, response) => {
      request.resume();
      const status = (request.url ?? "").includes("/models") || (request.url ?? "").includes("/key/info") ? 200 : 401;
      response.writeHead(status, { "content-type": "application/json" }).end(answerFor(request.url ?? ""));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const runs: Array<[string, string[]]> = [
    ["balance", ["balance"]],
    ["balance --json", ["balance", "--json"]],
    ["balance --kind litellm", ["balance", "--kind", "litellm"]],
    ["balance --kind one-api --json", ["balance", "--kind", "one-api", "--json"]],
    ["models", ["models"]],
    ["models --json", ["models", "--json"]],
    ["check", ["check", "--model", "echo"]],
    ["ask --json", ["ask", "--model", "echo", "--json", "hi"]],
    ["ask", ["ask", "--model", "echo", "hi"]],
  ];
  for (const [title, args] of runs) {
    it(`${title}: the key appears nowhere in the output`, async () => {
      const run = await runCli(args, { RELAY_CHAT_API_KEY: KEY, RELAY_CHAT_BASE_URL: baseUrl });
      const output = `${run.stdout}\n${run.stderr}`;
      assert.ok(output.trim().length > 0, "the command said something");
      for (const form of [KEY, escapedKey, slashEscapedKey, KEY.slice(3)]) assert.ok(!output.includes(form), `${title} printed the key (${form}):\n${output}`);
    });
  }
});
