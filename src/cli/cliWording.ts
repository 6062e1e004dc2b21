// The relay code explains problems in the editor's words ("Relay Chat: Set API Key", Continue, settings);
// on the command line the same problems are fixed with options and environment variables. These are the
// CLI's wording of those messages, given to @vscode/l10n as the CLI's "translation" of the English
// strings, so the relay code stays one source of explanations for both.

export const CLI_WORDING: Readonly<Record<string, string>> = {
  'No API key is set. Set it with "Relay Chat: Set API Key" or the RELAY_CHAT_API_KEY environment variable.':
    "No API key is set: put it in the RELAY_CHAT_API_KEY environment variable (never a flag, so it stays out of shell history).",
  'Check the API key: it may be wrong, disabled or expired. Set a new one with "Relay Chat: Set API Key".':
    "Check the API key in RELAY_CHAT_API_KEY: it may be wrong, disabled or expired.",
  "Check the base URL: it should point at the relay's API (for example https://relay.example.com/v1), not its web console.":
    "Check --base-url (or RELAY_CHAT_BASE_URL): it should point at the relay's API (for example https://relay.example.com/v1), not its web console.",
  "Check the model: it may not exist on this relay, or the key's model restriction may not include it. Pick another model or change the key's allowed models.":
    "Check --model: it may not exist on this relay, or the key's model restriction may not include it. `relay-chat models` lists the models the key may use.",
  "Pick another model, or ask the relay's operator to serve this one through the Responses API. Nothing was retried.":
    "Pass --protocol chat to send it over Chat Completions, pass another --model, or ask the relay's operator to serve this one through the Responses API. Nothing was retried.",
  "The same request over Chat Completions (/v1/chat/completions) worked: this model needs Chat Completions on this relay. Confirm the switch to use it.":
    "The same request over Chat Completions (/v1/chat/completions) worked: this model needs Chat Completions on this relay. Use ask --protocol chat with it.",
  "the model answers on Chat Completions only; check again after switching to check the rest over it.":
    "the model answers on Chat Completions only; run check --protocol chat to check the rest over it.",
  "The relay could not be reached. Check the network, proxy settings and the base URL.":
    "The relay could not be reached. Check the network, HTTPS_PROXY / HTTP_PROXY / NO_PROXY and --base-url.",
  "The answer stopped at the output budget (max_output_tokens). Continue or retry with a larger budget; either is a new, possibly billed request.":
    "The answer stopped at the output budget (--max-output-tokens). Ask again with a larger --max-output-tokens; that is a new, possibly billed request.",
  "The relay did not answer within {0} s (the limit for non-streamed requests, setting relayChat.nonStreamTimeoutSeconds), so the request was stopped. Check the relay's usage log before sending again.":
    "The relay did not answer within {0} s (the limit for non-streamed requests, --non-stream-timeout), so the request was stopped. Check the relay's usage log before sending again.",
  "Nothing arrived for {0} s, so the request was stopped. Check the relay's usage log before sending again.":
    "Nothing arrived for {0} s (--idle-timeout), so the request was stopped. Check the relay's usage log before sending again.",
  "No request-id header was found; add the relay's header name to the request-id header setting to match requests with the usage log.":
    "No request-id header was found, so requests cannot be matched with the relay's usage log by id.",
  "Only non-streamed function calls arrive intact through this relay: turn streaming off for it (setting relayChat.stream: false) to use tools.":
    "Only non-streamed function calls arrive intact through this relay: use ask --no-stream with it to use tools.",
  "Streamed function calls arrive intact, non-streamed ones do not: keep streaming on (relayChat.stream).":
    "Streamed function calls arrive intact, non-streamed ones do not: do not pass --no-stream.",
  "Only non-streamed function calls arrive intact: set relayChat.stream to false for this relay.":
    "Only non-streamed function calls arrive intact: use ask --no-stream with this relay.",
  "The answer grew past the stream size limit ({0} MB received; setting relayChat.maxStreamMegabytes), so Relay Chat stopped reading it. The text so far is kept. The relay may still bill the whole answer.":
    "The answer grew past the stream size limit ({0} MB received), so reading it stopped. The text so far is kept. The relay may still bill the whole answer.",
};
