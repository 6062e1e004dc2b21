// The settings that decide where the key goes, what travels with it, or which secrets a command may see are
// read the same way in local and remote windows and never from a workspace. VS Code drops `machine`-scoped
// values from the local User settings in a remote window (code-server, Remote-SSH, WSL, Dev Containers,
// Codespaces), so a relay address set there was lost once the file was parsed again; `application` scope is
// read from the User settings everywhere and ignored in workspace and folder settings.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

interface SettingContribution {
  scope?: string;
}

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as {
  contributes: { configuration: { properties: Record<string, SettingContribution> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const settings = manifest.contributes.configuration.properties;

const keyRouting = [
  "relayChat.relays",
  "relayChat.baseUrl",
  "relayChat.proxy",
  "relayChat.extraHeaders",
  "relayChat.consoleUrl",
  "relayChat.tools.commandEnvironment.allow",
];

describe("settings that decide where the key goes", () => {
  for (const name of keyRouting) {
    it(`${name} is application-scoped: User settings in local and remote windows, never a workspace`, () => {
      assert.ok(settings[name], `${name} is contributed`);
      assert.equal(settings[name].scope, "application");
    });
  }

  it("no Relay Chat setting is machine-scoped (remote windows would ignore it in the User settings)", () => {
    const machineScoped = Object.entries(settings)
      .filter(([, setting]) => setting.scope === "machine")
      .map(([name]) => name);
    assert.deepEqual(machineScoped, []);
  });
});

describe("the active editor's file as context", () => {
  it("relayChat.context.activeEditor is a boolean, on by default, that a workspace may set", () => {
    const setting = settings["relayChat.context.activeEditor"] as SettingContribution & { type?: string; default?: unknown };
    assert.ok(setting, "contributed");
    assert.equal(setting.type, "boolean");
    assert.equal(setting.default, true);
    assert.equal(setting.scope, undefined, "window scope: a workspace may turn it off");
  });
});

describe("your instructions in the Settings UI", () => {
  // VS Code draws a multilineText setting as a box that grows a line with each Enter (empty, it is one line
  // high), a plain string as a one-line field where Enter does nothing: instructions are often several lines.
  it("relayChat.instructions is edited as multi-line text, and its description says Enter starts a new line", () => {
    const setting = settings["relayChat.instructions"] as SettingContribution & { editPresentation?: string; markdownDescription?: string };
    assert.ok(setting, "contributed");
    assert.equal(setting.editPresentation, "multilineText");
    const key = /^%(.+)%$/.exec(setting.markdownDescription ?? "")?.[1] ?? "";
    for (const file of ["package.nls.json", "package.nls.zh-cn.json"]) {
      const strings = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", file), "utf8")) as Record<string, string>;
      assert.match(strings[key] ?? "", /Enter/, `${file}: ${key}`);
    }
  });
});
