// What the approval card shows for a call: each argument as it will be used, not as JSON. A command line is
// plain text exactly as the shell gets it, a path is the workspace-relative path it resolves to, and any
// character a person cannot see or that changes how the text around it is displayed (bidirectional controls,
// zero-width and other invisible characters, control characters, unusual spaces) is replaced by a visible
// marker and listed. Pure: paths are resolved by the caller (approvalGate) and passed in.
import type { JsonValue } from "../relay/types";

/**
 * What an argument means, so the approval card can show it as it will be used: a command line as plain text,
 * a folder or file path relative to the workspace. Arguments without a role are shown as their value.
 */
export type ArgumentRole = "command" | "folder" | "path";

export type HiddenCharacterKind = "bidirectional" | "invisible" | "control" | "space";

export interface HiddenCharacter {
  /** "U+202E". */
  readonly codePoint: string;
  readonly kind: HiddenCharacterKind;
}

/** A run of text as it is, or one hidden character shown as its marker (e.g. "⟨U+202E⟩"). */
export interface DisplaySegment {
  readonly text: string;
  readonly marker: boolean;
}

export interface ArgumentDisplay {
  /** The property name the model used. */
  readonly name: string;
  /** How the value is used; "value" for arguments without a role. */
  readonly role: ArgumentRole | "value";
  readonly segments: DisplaySegment[];
  /** default: the argument was left out and this is what the tool uses; outside: the tool will refuse this path. */
  readonly note: "default" | "outside" | null;
}

export interface ApprovalDisplay {
  readonly arguments: ArgumentDisplay[];
  /** Every distinct hidden character in any argument, in order of first appearance. */
  readonly hiddenCharacters: HiddenCharacter[];
}

/** Where a path argument leads, as the caller resolved it. */
export interface PathDisplay {
  /** Workspace-relative ("src/a.ts", "." for the folder itself), or the path as given when it is outside. */
  readonly shown: string;
  readonly inside: boolean;
}

const bidirectionalControls = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
/** Tab and line feed are ordinary in commands and text and show as themselves; every other control is hidden. */
const controlCharacters = /[^\t\n\P{Cc}]/u;
const unusualSpaces = /[^\u0020\P{Zs}]|[\p{Zl}\p{Zp}]/u;
/**
 * Format characters (zero-width space and joiners, word joiner, tag characters), default-ignorable ones
 * (variation selectors, Hangul fillers, soft hyphen), private-use and unassigned code points, lone surrogates,
 * and the blank braille pattern: all render as nothing or as something other than what they are.
 */
const invisibleCharacters = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Co}\p{Cn}\p{Cs}\u2800]/u;

export function hiddenCharacterKind(character: string): HiddenCharacterKind | null {
  if (bidirectionalControls.test(character)) return "bidirectional";
  if (controlCharacters.test(character)) return "control";
  if (unusualSpaces.test(character)) return "space";
  if (invisibleCharacters.test(character)) return "invisible";
  return null;
}

export function codePointLabel(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Text split into plain runs and markers, one marker per hidden character. */
export function displaySegments(text: string): DisplaySegment[] {
  const segments: DisplaySegment[] = [];
  let plain = "";
  for (const character of text) {
    if (hiddenCharacterKind(character) === null) {
      plain += character;
      continue;
    }
    if (plain !== "") segments.push({ text: plain, marker: false });
    plain = "";
    segments.push({ text: `⟨${codePointLabel(character)}⟩`, marker: true });
  }
  if (plain !== "" || segments.length === 0) segments.push({ text: plain, marker: false });
  return segments;
}

/** The hidden characters in every string of a value (keys included), each listed once. */
export function findHiddenCharacters(value: JsonValue | undefined): HiddenCharacter[] {
  const found = new Map<string, HiddenCharacter>();
  const visitText = (text: string): void => {
    for (const character of text) {
      const kind = hiddenCharacterKind(character);
      if (kind !== null && !found.has(character)) found.set(character, { codePoint: codePointLabel(character), kind });
    }
  };
  const visit = (current: JsonValue | undefined): void => {
    if (typeof current === "string") visitText(current);
    else if (Array.isArray(current)) current.forEach(visit);
    else if (typeof current === "object" && current !== null) {
      for (const [key, nested] of Object.entries(current)) {
        visitText(key);
        visit(nested);
      }
    }
  };
  visit(value);
  return [...found.values()];
}

/**
 * Arguments in the order the model sent them, then any folder argument it left out (a command still runs
 * somewhere, and the card must say where). `paths` holds the resolution of every path and folder argument
 * given as a string, by property name.
 */
export function describeArguments(
  args: Readonly<Record<string, JsonValue | undefined>>,
  roles: Readonly<Record<string, ArgumentRole>>,
  paths: ReadonlyMap<string, PathDisplay>,
): ApprovalDisplay {
  const shown: ArgumentDisplay[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    const role = roles[name] ?? "value";
    const resolved = typeof value === "string" ? paths.get(name) : undefined;
    if ((role === "path" || role === "folder") && resolved !== undefined) {
      shown.push({ name, role, segments: displaySegments(resolved.shown), note: resolved.inside ? null : "outside" });
    } else {
      const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
      shown.push({ name, role, segments: displaySegments(text), note: null });
    }
  }
  for (const [name, role] of Object.entries(roles)) {
    if (role === "folder" && args[name] === undefined) shown.push({ name, role, segments: displaySegments("."), note: "default" });
  }
  return { arguments: shown, hiddenCharacters: findHiddenCharacters(args as JsonValue) };
}
