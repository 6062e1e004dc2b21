import path from "node:path";

// Where the repository's own test data lives. Tests, benchmarks, the emulator and the demo read
// recorded streams, bodies and the Open Responses schema from here, never from outside the repository:
// a user's clone has nothing beside it (the architecture test enforces this).

export const repositoryRoot = path.resolve(__dirname, "..", "..");

/** Recorded Responses streams and bodies, gateway captures and the schema; provenance in its SOURCES.md. */
export const referenceDirectory = path.join(repositoryRoot, "test", "fixtures", "reference");

/** Recorded Chat Completions streams (public test suites' cassettes); provenance in its SOURCES.md. */
export const chatCompletionsDirectory = path.join(repositoryRoot, "test", "fixtures", "chat-completions");
