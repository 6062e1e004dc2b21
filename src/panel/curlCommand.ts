import type { ResponseRequest } from "../relay/types";

/**
 * A shell command that repeats a request. The key is never in it: the command reads
 * $RELAY_CHAT_API_KEY, and the body goes through a quoted here-document so nothing in it is expanded.
 */
export function curlCommandFor(endpoint: string, request: ResponseRequest): string {
  const body = JSON.stringify(request, null, 2);
  const streamFlag = request.stream ? " -N" : "";
  return [
    `curl -sS${streamFlag} '${endpoint.replace(/'/g, "'\\''")}' \\`,
    `  -H "Authorization: Bearer $RELAY_CHAT_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-binary @- <<'RELAY_CHAT_REQUEST_BODY'`,
    body,
    "RELAY_CHAT_REQUEST_BODY",
  ].join("\n");
}
