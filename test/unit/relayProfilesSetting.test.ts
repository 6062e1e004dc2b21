// relayChat.relays and the single relayChat.baseUrl of earlier versions, resolved into one list of relays:
// bad entries are named and skipped, the rest still work, and no entry can carry a key.
import * as assert from "node:assert/strict";
import { baseUrlProblem, defaultRelay, relayNameFromUrl, resolveRelayProfiles } from "../../src/relay/relayProfiles";
import type { RelayProfileSources } from "../../src/relay/relayProfiles";

const none: RelayProfileSources = { relays: undefined, baseUrl: "", extraHeaders: {}, consoleUrl: "", environmentBaseUrl: "" };

describe("relay profiles from the settings", () => {
  it("reads the single relayChat.baseUrl as one relay named after its host, with its headers and console", () => {
    const { profiles, problems } = resolveRelayProfiles({ ...none, baseUrl: "https://relay.example.com/v1/", extraHeaders: { "x-portkey-provider": "openai" }, consoleUrl: "https://relay.example.com/console" });
    assert.deepEqual(problems, []);
    assert.deepEqual(profiles, [
      { name: "relay.example.com", baseUrl: "https://relay.example.com/v1/", extraHeaders: { "x-portkey-provider": "openai" }, consoleUrl: "https://relay.example.com/console", priceSource: "relay", kind: null, origin: "baseUrl" },
    ]);
  });

  it("reads RELAY_CHAT_BASE_URL when no base URL is set, and names a relay with a port after host and port", () => {
    const { profiles } = resolveRelayProfiles({ ...none, environmentBaseUrl: "http://127.0.0.1:8787" });
    assert.equal(profiles.length, 1);
    assert.equal(profiles[0]!.name, "127.0.0.1:8787");
    assert.equal(profiles[0]!.origin, "environment");
    assert.equal(relayNameFromUrl("https://openrouter.ai/api/v1"), "openrouter.ai");
  });

  it("keeps the list's order, adds the single base URL after it unless the list already has that address", () => {
    const relays = [
      { name: "Cheap relay", baseUrl: "https://cheap.example.com/v1", priceSource: "settings", kind: "new-api" },
      { name: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", consoleUrl: "https://openrouter.ai/settings/credits" },
    ];
    const withOther = resolveRelayProfiles({ ...none, relays, baseUrl: "https://official.example.com" });
    assert.deepEqual(withOther.profiles.map((profile) => [profile.name, profile.origin, profile.priceSource, profile.kind]), [
      ["Cheap relay", "relays", "settings", "new-api"],
      ["OpenRouter", "relays", "relay", null],
      ["official.example.com", "baseUrl", "relay", null],
    ]);
    const same = resolveRelayProfiles({ ...none, relays, baseUrl: "https://cheap.example.com" });
    assert.deepEqual(same.profiles.map((profile) => profile.name), ["Cheap relay", "OpenRouter"], "the same root is not listed twice");
  });

  it("sends to the relay of relayChat.baseUrl until one is picked, so a relay added to the list by hand does not take its place", () => {
    const relays = [{ name: "Cheap relay", baseUrl: "https://cheap.example.com/v1" }];
    assert.equal(defaultRelay(resolveRelayProfiles({ ...none, relays, baseUrl: "https://official.example.com" }).profiles)?.name, "official.example.com");
    assert.equal(defaultRelay(resolveRelayProfiles({ ...none, relays, environmentBaseUrl: "http://127.0.0.1:8787" }).profiles)?.name, "127.0.0.1:8787");
    assert.equal(defaultRelay(resolveRelayProfiles({ ...none, relays, baseUrl: "https://cheap.example.com" }).profiles)?.name, "Cheap relay", "the list's entry at the same address");
    assert.equal(defaultRelay(resolveRelayProfiles({ ...none, relays }).profiles)?.name, "Cheap relay", "without a base URL, the list's first");
    assert.equal(defaultRelay([]), undefined);
  });

  it("names and skips a bad entry, and keeps the good ones", () => {
    const { profiles, problems } = resolveRelayProfiles({
      ...none,
      relays: [
        { name: "Good", baseUrl: "https://good.example.com/v1" },
        { baseUrl: "https://nameless.example.com" },
        { name: "good", baseUrl: "https://twice.example.com" },
        { name: "Bad URL", baseUrl: "ftp://x" },
        { name: "Keyed", baseUrl: "https://keyed.example.com", apiKey: "placeholder" },
        { name: "Secret header", baseUrl: "https://h.example.com", extraHeaders: { authorization: "Bearer x" } },
        { name: "Price", baseUrl: "https://p.example.com", priceSource: "guess" },
        "not an object",
      ],
    });
    assert.deepEqual(profiles.map((profile) => profile.name), ["Good"]);
    assert.equal(problems.length, 7);
    assert.match(problems[0]!, /entry 2 needs a "name"/);
    assert.match(problems[1]!, /entry 3: the name "good" is used twice/);
    assert.match(problems[2]!, /entry 4 \(Bad URL\): The base URL must start with http:\/\/ or https:\/\//);
    assert.match(problems[3]!, /entry 5 \(Keyed\): unknown field apiKey\..*the API key is never a setting/);
    assert.match(problems[4]!, /entry 6 \(Secret header\): .*authorization/);
    assert.match(problems[5]!, /entry 7 \(Price\): "priceSource"/);
    assert.match(problems[6]!, /entry 8 is not an object/);
  });

  it("says what shape the setting needs when it is not a list, and never names a relay twice", () => {
    const { profiles, problems } = resolveRelayProfiles({ ...none, relays: { name: "x" }, baseUrl: "https://a.example.com" });
    assert.match(problems[0]!, /must be a list of relays/);
    assert.deepEqual(profiles.map((profile) => profile.name), ["a.example.com"]);
    const clash = resolveRelayProfiles({ ...none, relays: [{ name: "a.example.com", baseUrl: "https://other.example.com" }], baseUrl: "https://a.example.com" });
    assert.deepEqual(clash.profiles.map((profile) => profile.name), ["a.example.com", "a.example.com (2)"]);
  });
});

describe("a base URL typed without http:// or https:// (issue 27 §5)", () => {
  it("says what is missing and how the address should be written", () => {
    const cases: Array<[string, string]> = [
      ["127.0.0.1:46035", "http://127.0.0.1:46035"],
      ["localhost:8080/v1", "http://localhost:8080/v1"],
      ["relay.example.com/v1", "https://relay.example.com/v1"],
      ["  relay.example.com  ", "https://relay.example.com"],
    ];
    for (const [typed, written] of cases) {
      assert.equal(
        baseUrlProblem(typed),
        `The base URL "${typed.trim()}" has no http:// or https:// in front, so it cannot be used. Write it with one, for example ${written}.`,
        typed,
      );
    }
  });

  it("leaves the other messages as they were", () => {
    assert.equal(baseUrlProblem("https://relay.example.com/v1"), null);
    assert.match(baseUrlProblem("ftp://relay.example.com") ?? "", /must start with http:\/\/ or https:\/\//);
    assert.match(baseUrlProblem("not a url") ?? "", /is not a valid URL/);
  });

  it("names the setting the address came from instead of skipping it in silence", () => {
    const fromSettings = resolveRelayProfiles({ ...none, baseUrl: "127.0.0.1:46035" });
    assert.deepEqual(fromSettings.profiles, []);
    assert.deepEqual(fromSettings.problems, ['relayChat.baseUrl: The base URL "127.0.0.1:46035" has no http:// or https:// in front, so it cannot be used. Write it with one, for example http://127.0.0.1:46035.']);
    const fromEnvironment = resolveRelayProfiles({ ...none, baseUrl: "127.0.0.1:46035", environmentBaseUrl: "http://127.0.0.1:8787" });
    assert.deepEqual(fromEnvironment.profiles.map((profile) => profile.baseUrl), ["http://127.0.0.1:8787"], "the environment's address still works");
    assert.match(fromEnvironment.problems.join("\n"), /^relayChat\.baseUrl: /);
  });
});
