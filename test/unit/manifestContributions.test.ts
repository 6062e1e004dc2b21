// What the manifest contributes is what a person sees in the Command Palette, the Settings editor, the views,
// the walkthrough and the marketplace page: every command, setting, view and walkthrough step has a
// description, in English and in each language the extension offers; the keybindings take none of VS Code's
// defaults; the files the manifest names ship in the VSIX.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import picomatch from "picomatch";
import { documentationPages, imagesShown } from "../support/documentationPages";

const root = path.join(__dirname, "..", "..");
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));

interface Manifest {
  icon?: string;
  keywords?: string[];
  galleryBanner?: { color?: string; theme?: string };
  repository?: unknown;
  contributes: {
    commands: Array<{ command: string; title?: string }>;
    configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> };
    viewsContainers: Record<string, Array<{ id: string; title?: string }>>;
    views: Record<string, Array<{ id: string; name?: string }>>;
    walkthroughs: Array<{ id: string; title?: string; description?: string; steps: Array<{ id: string; title?: string; description?: string; media: { markdown?: string } }> }>;
    keybindings: Array<{ command: string; key: string; mac?: string; when?: string }>;
  };
}

type Strings = Record<string, string>;

const manifest = readJson("package.json") as Manifest;
const english = readJson("package.nls.json") as Strings;
const translations = fs
  .readdirSync(root)
  .filter((name) => /^package\.nls\.[\w-]+\.json$/.test(name))
  .map((name) => ({ language: name.slice("package.nls.".length, -".json".length), strings: readJson(name) as Strings }));

/** Each text a person reads, named by where it is contributed. */
function contributedTexts(contributes: Manifest["contributes"]): Array<{ where: string; text: string | undefined }> {
  const texts: Array<{ where: string; text: string | undefined }> = [];
  for (const command of contributes.commands) texts.push({ where: `command ${command.command}`, text: command.title });
  for (const [name, setting] of Object.entries(contributes.configuration.properties)) texts.push({ where: `setting ${name}`, text: setting.markdownDescription ?? setting.description });
  for (const container of Object.values(contributes.viewsContainers).flat()) texts.push({ where: `views container ${container.id}`, text: container.title });
  for (const view of Object.values(contributes.views).flat()) texts.push({ where: `view ${view.id}`, text: view.name });
  for (const walkthrough of contributes.walkthroughs) {
    texts.push({ where: `walkthrough ${walkthrough.id}`, text: walkthrough.title }, { where: `walkthrough ${walkthrough.id} description`, text: walkthrough.description });
    for (const step of walkthrough.steps) texts.push({ where: `walkthrough step ${step.id}`, text: step.title }, { where: `walkthrough step ${step.id} description`, text: step.description });
  }
  return texts;
}

/** What is missing: a text that is not a %key%, a key without English, a key without a translation. */
function descriptionGaps(contributes: Manifest["contributes"], englishStrings: Strings, languages: ReadonlyArray<{ language: string; strings: Strings }>): string[] {
  const gaps: string[] = [];
  for (const { where, text } of contributedTexts(contributes)) {
    const key = /^%(.+)%$/.exec(text ?? "")?.[1];
    if (key === undefined) {
      gaps.push(`${where}: no localizable description (${JSON.stringify(text)})`);
      continue;
    }
    if (!englishStrings[key]?.trim()) gaps.push(`${where}: "${key}" has no English text in package.nls.json`);
    for (const { language, strings } of languages) if (!strings[key]?.trim()) gaps.push(`${where}: "${key}" has no translation in package.nls.${language}.json`);
  }
  return gaps;
}

/** VS Code writes a chord's modifiers in one order (ctrl, shift, alt, cmd); compare in that order. */
function normalizedChord(chord: string): string {
  const order = ["ctrl", "shift", "alt", "cmd", "meta", "win"];
  return chord
    .toLowerCase()
    .split(" ")
    .map((part) => {
      const keys = part.split("+");
      const key = keys.pop() as string;
      return [...keys.sort((a, b) => order.indexOf(a) - order.indexOf(b)), key].join("+");
    })
    .join(" ");
}

describe("manifest contributions", () => {
  it("gives every command, setting, view and walkthrough step a description in English and in each offered language", () => {
    assert.ok(translations.length > 0, "a package.nls.<language>.json exists");
    assert.deepEqual(descriptionGaps(manifest.contributes, english, translations), []);
  });

  it("would catch a command without a translation, a setting without a description and a view named in plain text", () => {
    const broken: Manifest["contributes"] = JSON.parse(JSON.stringify(manifest.contributes));
    broken.commands.push({ command: "relayChat.untranslated", title: "%command.untranslated.title%" });
    delete broken.configuration.properties["relayChat.model"]?.description;
    (broken.views.relayChat as Array<{ id: string; name?: string }>)[0] = { id: "relayChat.chatView", name: "Chat" };
    const gaps = descriptionGaps(broken, { ...english, "command.untranslated.title": "Untranslated" }, translations);
    assert.ok(gaps.some((gap) => gap.startsWith("command relayChat.untranslated:") && gap.includes("no translation")), gaps.join("\n"));
    assert.ok(gaps.some((gap) => gap.startsWith("setting relayChat.model: no localizable description")), gaps.join("\n"));
    assert.ok(gaps.some((gap) => gap.startsWith("view relayChat.chatView: no localizable description")), gaps.join("\n"));
  });

  it("binds keys only to its own commands (or its own views' focus commands, which VS Code makes), and none of VS Code's default keys on Linux, Windows or macOS", () => {
    const defaults = (readJson("test/fixtures/reference/vscodeDefaultKeybindings.json") as { keys: Record<"linux" | "windows" | "macos", string[]> }).keys;
    const taken = (platform: keyof typeof defaults) => new Set(defaults[platform].map(normalizedChord));
    const viewFocusCommands = Object.values(manifest.contributes.views).flatMap((views) => views.map((view) => `${view.id}.focus`));
    const commands = new Set([...manifest.contributes.commands.map((command) => command.command), ...viewFocusCommands]);
    assert.ok(manifest.contributes.keybindings.length >= 2);
    for (const binding of manifest.contributes.keybindings) {
      assert.ok(commands.has(binding.command), `${binding.command} is a contributed command`);
      assert.ok(binding.mac, `${binding.command} has a macOS key`);
      // A key held only while Relay Chat's own state is on (Escape while an edit in place streams) may be one VS Code uses.
      if (whileOwnStateOnly(binding.when)) continue;
      for (const platform of ["linux", "windows"] as const) assert.ok(!taken(platform).has(normalizedChord(binding.key)), `${binding.key} is free on ${platform}`);
      assert.ok(!taken("macos").has(normalizedChord(binding.mac as string)), `${binding.mac} is free on macOS`);
    }
    // The check itself: a key VS Code uses is seen as taken, whatever the order of its modifiers.
    assert.ok(taken("linux").has(normalizedChord("alt+ctrl+r")));
    assert.equal(whileOwnStateOnly("relayChat.editInPlaceStreaming"), true);
    assert.equal(whileOwnStateOnly("editorTextFocus"), false);
    assert.equal(whileOwnStateOnly("relayChat.editInPlaceStreaming || editorTextFocus"), false);
  });

  it("has a marketplace icon of 128 px, keywords and a gallery banner, and no repository it cannot vouch for", () => {
    assert.equal(manifest.icon, "media/icon.png");
    const png = fs.readFileSync(path.join(root, "media", "icon.png"));
    assert.equal(png.subarray(1, 4).toString("latin1"), "PNG");
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.ok((manifest.keywords ?? []).length > 0 && (manifest.keywords ?? []).length <= 30);
    assert.match(manifest.galleryBanner?.color ?? "", /^#[0-9a-f]{6}$/i);
    assert.equal(manifest.repository, undefined, "no repository field until the project has a real public address");
  });

  it("ships every file the manifest and the README point to in the VSIX (.vscodeignore allows them)", () => {
    const allowed = fs
      .readFileSync(path.join(root, ".vscodeignore"), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("!"))
      .map((line) => picomatch(line.slice(1)));
    const packaged = (file: string): boolean => allowed.some((matches) => matches(file));
    const [readme, ...docsPages] = documentationPages();
    const readmeImages = imagesShown(readme!).map(({ file }) => `docs/images/${file}`);
    const wanted = [
      manifest.icon as string,
      "CHANGELOG.md",
      ...manifest.contributes.walkthroughs.flatMap((walkthrough) => walkthrough.steps.map((step) => step.media.markdown as string)),
      ...readmeImages,
    ];
    assert.ok(readmeImages.length > 0);
    for (const file of wanted) {
      assert.ok(fs.existsSync(path.join(root, file)), `${file} exists`);
      assert.ok(packaged(file), `${file} is packaged`);
    }
    // Every bundle the build writes is loaded at run time (the extension, the checkpoint helper thread beside it,
    // the webview and its highlighter), except the CLI, which is published on its own.
    const bundles = [...fs.readFileSync(path.join(root, "scripts", "build.mjs"), "utf8").matchAll(/outfile: "([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(bundles.includes("dist/checkpointWorker.js"), "the build writes the checkpoint helper's bundle");
    for (const bundle of bundles.filter((file) => file !== "dist/cli.js")) assert.ok(packaged(bundle), `${bundle} (built by scripts/build.mjs) is packaged`);
    // The extension page shows the README alone: the docs/ pages and the pictures only they show would be dead weight.
    const docsOnly = docsPages.flatMap((page) => [page.file, ...imagesShown(page).map(({ file }) => `docs/images/${file}`)]).filter((file) => !readmeImages.includes(file));
    assert.ok(docsOnly.length > 0);
    for (const file of docsOnly) assert.ok(!packaged(file), `${file} is not packaged (only the README's pictures are)`);
  });
});

/** A `when` that is one of Relay Chat's own context keys alone: the binding exists only while that state is on. */
function whileOwnStateOnly(when: string | undefined): boolean {
  return typeof when === "string" && /^relayChat\.[\w.]+$/.test(when.trim());
}
