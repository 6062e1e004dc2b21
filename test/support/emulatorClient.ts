import { RelayClient } from "../../src/relay/client";
import type { RelayClientOptions } from "../../src/relay/client";
import { startRelayEmulator } from "../emulator/server";
import type { EmulatorOptions, RelayEmulator } from "../emulator/server";

export interface EmulatorAndClient {
  emulator(): RelayEmulator;
  client(): RelayClient;
}

/**
 * Starts a relay emulator and a client for it before the suite's tests and closes both after them; call
 * inside a `describe`. The client uses the emulator's default key and a 5 s idle limit unless told otherwise.
 */
export function emulatorWithClient(emulatorOptions: EmulatorOptions = {}, clientOptions: Partial<RelayClientOptions> = {}): EmulatorAndClient {
  let emulator: RelayEmulator | null = null;
  let client: RelayClient | null = null;
  before(async () => {
    emulator = await startRelayEmulator(emulatorOptions);
    client = new RelayClient({ baseUrl: emulator.baseUrl, apiKey: emulator.defaultKey, idleTimeoutMs: 5000, ...clientOptions });
  });
  after(async () => {
    await client?.close();
    await emulator?.close();
  });
  return {
    emulator: () => emulator ?? assertStarted(),
    client: () => client ?? assertStarted(),
  };
}

function assertStarted(): never {
  throw new Error("The emulator is used before the suite started it (call emulatorWithClient inside describe).");
}
