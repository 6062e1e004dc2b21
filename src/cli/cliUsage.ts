// What `relay-chat --help` and `relay-chat COMMAND --help` print: the general usage, and each command's own.

import { RELAY_KINDS } from "../relay/relayKind";

export const COMMAND_NAMES = ["ask", "models", "check", "balance"] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

export function isCommandName(value: string | undefined): value is CommandName {
  return (COMMAND_NAMES as readonly (string | undefined)[]).includes(value);
}

export const USAGE = `Usage:
  relay-chat ask --base-url URL --model ID [--protocol chat|responses] [--no-stream] [--max-output-tokens N] [--prices FILE] [--system TEXT] [--no-rules]
                 [--model-settings FILE] [--relay NAME] [--reasoning-effort E] [--temperature T] [--instructions-as developer] [--json] PROMPT|-
  relay-chat models --base-url URL [--json]
  relay-chat check --base-url URL --model ID [--protocol chat|responses]
  relay-chat balance --base-url URL [--json]

Options for every command:
  --header "NAME: VALUE"     an extra, non-secret request header (repeatable), e.g. "x-portkey-provider: openai"
  --idle-timeout SECONDS     give up on a stream when nothing arrives for this long (default 120)
  --content-timeout SECONDS  give up on a stream when only keep-alives arrive for this long (default 600)
  --non-stream-timeout SECONDS  the whole-answer limit of a non-streamed request (default 600)
  --kind KIND                the kind of relay (${RELAY_KINDS.join(", ")}): which balance and price
                             endpoints to ask first; without it they are tried in turn

"ask" reports the request's cost: billed where the relay says what it charged (OpenRouter, LiteLLM),
estimated from the relay's published prices (new-api, OpenRouter, LiteLLM) or from --prices FILE, a JSON
list like [{"model": "gpt-4o-mini", "input": 0.15, "cachedInput": 0.075, "output": 0.6, "currency": "USD"}]
in money per million tokens (the relayChat.prices setting's shape); unknown stays null, never 0.
"ask" tells the model what the panel does (its base instruction, with the working directory as the
workspace), plus --system TEXT and the working directory's rules files (AGENTS.md,
.github/copilot-instructions.md, CLAUDE.md, .clinerules, .cursorrules) unless --no-rules; --json lists
them as "instructionSources".
"balance" reads the key's balance where the relay shows it with the same key (new-api and one-api
billing endpoints, new-api /api/usage/token/, OpenRouter /api/v1/key, LiteLLM /key/info); it is never
billed. --json prints {"remaining", "used", "unit", "unlimited", "source"}; exit 0 when a balance was read.

The API key is read from the RELAY_CHAT_API_KEY environment variable only (never a flag, so it stays out
of shell history). The base URL may also come from RELAY_CHAT_BASE_URL. Proxies: HTTPS_PROXY, HTTP_PROXY, NO_PROXY.
"check" sends a model list request and three small requests, then one or two tiny ones about instructions; the relay may bill each.
"relay-chat COMMAND --help" (or "relay-chat help COMMAND") describes one command.`;

const COMMON_OPTIONS = `Options for every command:
  --base-url URL             the relay's address (or RELAY_CHAT_BASE_URL); the key only from RELAY_CHAT_API_KEY
  --header "NAME: VALUE"     an extra, non-secret request header (repeatable)
  --idle-timeout SECONDS     give up on a stream when nothing arrives for this long (default 120)
  --content-timeout SECONDS  give up on a stream when only keep-alives arrive for this long (default 600)
  --non-stream-timeout SECONDS  the whole-answer limit of a non-streamed request (default 600)`;

const COMMAND_HELP: Record<CommandName, string> = {
  ask: `Usage: relay-chat ask --model ID [options] PROMPT
       echo PROMPT | relay-chat ask --model ID [options]      (the prompt from standard input; or PROMPT "-")

Sends one prompt and prints the answer as it streams (stdout), then a receipt line (stderr).

  --model ID                 the model (required)
  --protocol chat|responses  the wire: /v1/responses (default) or /v1/chat/completions for a model without Responses
  --no-stream                one whole answer instead of a stream
  --max-output-tokens N      the output budget; an answer cut there ends "incomplete" (exit 1)
  --json                     print one JSON object (outcome, text, usage, cost, request ids); exit 0 only when completed
  --prices FILE              prices to estimate the cost with: [{"model", "input", "cachedInput", "output", "currency"}]
                             per million tokens
  --kind KIND                the kind of relay (${RELAY_KINDS.join(", ")}), for its price list
  --system TEXT              your own instructions, sent after the base instruction
  --no-rules                 do not send the working directory's rules files (AGENTS.md, CLAUDE.md…)
  --model-settings FILE      per-model settings as the panel's relayChat.modelSettings (a JSON list, or an object
                             holding "relayChat.modelSettings"): reasoning effort, temperature, output cap and
                             instructions of the entries for --model (on every relay, and on --relay NAME)
  --relay NAME               the relay's name in those entries
  --reasoning-effort E       minimal, low, medium or high (over the file's)
  --temperature T            0 to 2 (over the file's)
  --instructions-as WHERE    "instructions" (the Responses field, the default) or "developer" (a developer message
                             first in the input, for a relay that drops the field; "check" says which works)

${COMMON_OPTIONS}`,
  models: `Usage: relay-chat models [--json] [options]

Lists the relay's models (GET /models), one id a line; --json prints {"ok", "models", "requestId"}.

${COMMON_OPTIONS}`,
  check: `Usage: relay-chat check --model ID [options]

Checks what the relay supports: the model list, a streamed and a non-streamed request and a function call.
It sends three small requests, which the relay may bill, then one or two tiny ones to learn whether the relay
passes the instructions field on (else a developer message: ask --instructions-as developer). Exit 0 when
everything works. A model the relay refuses on the Responses interface is tried once more over Chat
Completions, and the report says which works; one the relay lists for Chat Completions only is checked over it.

  --protocol chat|responses  check over this wire (as the model is set to use); default: as above

${COMMON_OPTIONS}`,
  balance: `Usage: relay-chat balance [--json] [--kind KIND] [options]

Reads the key's balance where the relay shows it with the same key (never billed): new-api and one-api
billing endpoints, new-api /api/usage/token/, OpenRouter /api/v1/key, LiteLLM /key/info.
--json prints {"remaining", "used", "unit", "unlimited", "source"}; exit 0 when a balance was read.

  --kind KIND                the kind of relay (${RELAY_KINDS.join(", ")}): which endpoints to ask first

${COMMON_OPTIONS}`,
};

export function commandHelp(command: CommandName): string {
  return COMMAND_HELP[command];
}
