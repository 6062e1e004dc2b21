import { readBalance } from "../relay/balance";
import type { RelayClient } from "../relay/client";
import type { RelayKind } from "../relay/relayKind";
import type { CliOutput } from "./askCommand";

/** `relay-chat balance`: the key's balance from the relay's balance endpoints; exit 0 only when one was read. */
export async function runBalance(client: RelayClient, options: { json: boolean; kind: RelayKind | null }, output: CliOutput, signal: AbortSignal): Promise<number> {
  const result = await readBalance(client, { kind: options.kind, signal });
  if (!result.ok) {
    output.stderr(`${result.reason}\n`);
    return 1;
  }
  const { remaining, used, unit, unlimited, source } = result.balance;
  if (options.json) {
    output.stdout(`${JSON.stringify({ remaining, used, unit, unlimited, source })}\n`);
    return 0;
  }
  const amount = (value: number) => `${value} ${unit ?? "(unit unknown)"}`;
  const left = unlimited ? "unlimited (the key has no limit of its own)" : remaining === null ? "remaining unknown" : `remaining ${amount(remaining)}`;
  output.stdout(`${left}${used === null ? "" : `, used ${amount(used)}`} (from ${source})\n`);
  return 0;
}
