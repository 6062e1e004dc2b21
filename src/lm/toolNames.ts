// Relays accept function names of 1-64 letters, digits, "_" or "-"; VS Code's tool names (other
// extensions', MCP servers') may contain dots, slashes or spaces, may be longer, and may collide with
// each other or with Relay Chat's own tools once cleaned. Both directions (VS Code's chat offering its
// tools to a relay model, and the panel offering VS Code's tools) rename them the same way and map the
// model's calls back by this table.

const VALID_RELAY_TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_NAME_LENGTH = 64;

export function isValidRelayToolName(name: string): boolean {
  return VALID_RELAY_TOOL_NAME.test(name);
}

export interface ToolNameTable {
  /** The name sent to the relay for each original name. */
  readonly relayNameOf: ReadonlyMap<string, string>;
  /** The original name for each name sent to the relay. */
  readonly originalNameOf: ReadonlyMap<string, string>;
}

/**
 * Gives every original name a valid relay name, unique among themselves and distinct from `reserved`.
 * A name that is already valid and free keeps its spelling; the others are cleaned (invalid characters
 * become "_", cut to 64) and, if taken, numbered ("_2", "_3"...). The result depends only on the order
 * of the names, so the same list always maps the same way.
 */
export function relayToolNames(originalNames: readonly string[], reserved: ReadonlySet<string> = new Set()): ToolNameTable {
  const relayNameOf = new Map<string, string>();
  const originalNameOf = new Map<string, string>();
  const taken = new Set(reserved);
  // Valid, free names are placed first so that a cleaned name can never take the spelling of a later
  // name that needed no change.
  const unique = [...new Set(originalNames)];
  for (const name of unique) {
    if (isValidRelayToolName(name) && !taken.has(name)) {
      taken.add(name);
      relayNameOf.set(name, name);
    }
  }
  for (const name of unique) {
    if (relayNameOf.has(name)) continue;
    const relayName = firstFreeName(cleanName(name), taken);
    taken.add(relayName);
    relayNameOf.set(name, relayName);
  }
  for (const [original, relayName] of relayNameOf) originalNameOf.set(relayName, original);
  return { relayNameOf, originalNameOf };
}

function cleanName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME_LENGTH);
  return cleaned === "" ? "tool" : cleaned;
}

function firstFreeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let number = 2; ; number += 1) {
    const suffix = `_${number}`;
    const candidate = base.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
