// Reads a program's arguments against its table of known options, the way getopt and git's parse-options do:
// `--name=value` and `--name value`, bundled short options (-rf), `--` ending the options. An option missing from
// the table is a concern: Relay Chat cannot tell what it does, so no rule approves it by itself.
import type { Concern, ConcernKind, OptionUse, Positional } from "./commandNode";
import { reachesOutsideWorkspace } from "./words";

export interface OptionSpec {
  /** The name rules compare (the long name where there is one). */
  readonly canonical: string;
  /** required: the next word or an attached value (--x=v, -xv); attached: only an attached value (--x=v). */
  readonly value?: "required" | "attached";
  /** The value is a path that must stay inside the workspace. */
  readonly path?: boolean;
  /** Using the option always needs a card, for this reason. */
  readonly concern?: ConcernKind;
}

export type OptionTable = ReadonlyMap<string, OptionSpec>;

export type OptionEntry = Omit<OptionSpec, "canonical"> | true;

/**
 * A table from a compact notation: each key lists the spellings of one option ("-r -R --recursive"); the first long
 * spelling is the name rules compare. `true` is a plain flag.
 */
export function optionTable(...groups: Record<string, OptionEntry>[]): OptionTable {
  const table = new Map<string, OptionSpec>();
  for (const entries of groups) {
    for (const [spellings, entry] of Object.entries(entries)) {
      const names = spellings.split(" ");
      const canonical = names.find((name) => name.startsWith("--")) ?? names[0] ?? spellings;
      for (const name of names) table.set(name, { canonical, ...(entry === true ? {} : entry) });
    }
  }
  return table;
}

/** Plain flags, one comma-separated group per option: flags("-f --force, -v"). */
export function flags(names: string): Record<string, OptionEntry> {
  return entriesOf(names, true);
}

/** Options that take a value (the next word, or attached). */
export function valued(names: string): Record<string, OptionEntry> {
  return entriesOf(names, { value: "required" });
}

/** Options whose value, if any, is attached (--color=always, -M50%). */
export function attached(names: string): Record<string, OptionEntry> {
  return entriesOf(names, { value: "attached" });
}

/** Options whose value is a path that must stay inside the workspace. */
export function pathValued(names: string): Record<string, OptionEntry> {
  return entriesOf(names, { value: "required", path: true });
}

/** Options that always need a card, for this reason. */
export function concerning(names: string, concern: ConcernKind, value?: "required" | "attached"): Record<string, OptionEntry> {
  return entriesOf(names, value === undefined ? { concern } : { concern, value });
}

function entriesOf(names: string, entry: OptionEntry): Record<string, OptionEntry> {
  return Object.fromEntries(
    names
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "")
      .map((name) => [name, entry]),
  );
}

export interface ParseStyle {
  /** Options may follow positionals (GNU tools, git, npm). Otherwise the first positional ends the options. */
  readonly permute?: boolean;
  /** -5 is a count (head -5, git log -5). */
  readonly numericOption?: boolean;
  /** --no-x is known when --x is a known plain flag without a concern (git). */
  readonly negation?: boolean;
  /** Single-dash options are whole words (-ws, -name), never bundles. */
  readonly wholeWordShortOptions?: boolean;
}

export interface ParsedArguments {
  readonly options: OptionUse[];
  readonly positionals: Positional[];
  readonly concerns: Concern[];
  /** Index of the first word after a `--`, or -1. */
  readonly afterDoubleDash: number;
  /** Where reading stopped (the end, or the first positional when options do not permute). */
  readonly end: number;
}

/** Reads words[start..] (or up to `stop`); positionals are only collected, their meaning is the caller's. */
export function parseArguments(words: readonly string[], start: number, table: OptionTable, style: ParseStyle = {}, stop = words.length): ParsedArguments {
  const options: OptionUse[] = [];
  const positionals: Positional[] = [];
  const concerns: Concern[] = [];
  let afterDoubleDash = -1;
  let index = start;
  const unknown = (written: string) => concerns.push({ kind: "unknownOption", subject: written, index });
  const use = (spec: OptionSpec, written: string, value: string | null, valueIndex: number) => {
    options.push({ name: spec.canonical, written, index, value });
    const shown = value === null ? written : valueIndex === index ? written : `${written} ${value}`;
    if (spec.concern !== undefined) concerns.push({ kind: spec.concern, subject: shown, index });
    if (spec.path === true && value !== null && reachesOutsideWorkspace(value)) concerns.push({ kind: "outsideWorkspace", subject: shown, index });
  };
  while (index < stop) {
    const word = words[index] ?? "";
    if (word === "--" && !style.permute) {
      // The options end here; what follows is the caller's (a wrapper's command, an interpreter's script).
      afterDoubleDash = index + 1;
      index++;
      break;
    }
    if (word === "--") {
      afterDoubleDash = index + 1;
      for (let rest = index + 1; rest < stop; rest++) positionals.push({ word: words[rest] ?? "", index: rest });
      index = stop;
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      if (!style.permute) break;
      positionals.push({ word, index });
      index++;
      continue;
    }
    if (style.numericOption && /^-[0-9]+$/.test(word)) {
      options.push({ name: "-<number>", written: word, index, value: word.slice(1) });
      index++;
      continue;
    }
    if (word.startsWith("--") || style.wholeWordShortOptions) {
      const equals = word.indexOf("=");
      const name = equals < 0 ? word : word.slice(0, equals);
      const spec = table.get(name) ?? negated(name, table, style);
      if (spec === undefined) unknown(word);
      else if (equals >= 0) {
        if (spec.value === undefined) unknown(word);
        else use(spec, word, word.slice(equals + 1), index);
      } else if (spec.value === "required") {
        const value = words[index + 1];
        if (value === undefined) unknown(word);
        else {
          use(spec, word, value, index + 1);
          index++;
        }
      } else use(spec, word, null, index);
      index++;
      continue;
    }
    // Short options, possibly bundled: -rf; a value takes the rest of the word or the next word (-n5, -n 5).
    for (let position = 1; position < word.length; position++) {
      const spec = table.get(`-${word[position]}`);
      if (spec === undefined) {
        unknown(word);
        break;
      }
      if (spec.value === undefined) {
        use(spec, word, null, index);
        continue;
      }
      const attached = word.slice(position + 1);
      if (attached !== "") use(spec, word, attached, index);
      else if (spec.value === "required" && words[index + 1] !== undefined) {
        use(spec, word, words[index + 1] ?? "", index + 1);
        index++;
      } else if (spec.value === "required") unknown(word);
      else use(spec, word, null, index);
      break;
    }
    index++;
  }
  return { options, positionals, concerns, afterDoubleDash, end: index };
}

function negated(name: string, table: OptionTable, style: ParseStyle): OptionSpec | undefined {
  if (!style.negation || !name.startsWith("--no-")) return undefined;
  const positive = table.get(`--${name.slice(5)}`);
  return positive !== undefined && positive.value === undefined && positive.concern === undefined ? { canonical: name } : undefined;
}

/** The names rules compare for an option word of this table: -rf gives --recursive and --force. */
export function tableOptionNames(table: OptionTable, style: ParseStyle = {}): (written: string) => readonly string[] {
  return (written) => {
    const name = written.includes("=") ? written.slice(0, written.indexOf("=")) : written;
    if (name.startsWith("--") || style.wholeWordShortOptions) return [table.get(name)?.canonical ?? name];
    if (!/^-[^-]/.test(name)) return [name];
    const names: string[] = [];
    for (const letter of name.slice(1)) {
      const spec = table.get(`-${letter}`);
      names.push(spec?.canonical ?? `-${letter}`);
      if (spec?.value !== undefined) break;
    }
    return names;
  };
}

/** A concern for every positional that reaches outside the workspace. */
export function outsidePositionals(positionals: readonly Positional[]): Concern[] {
  return positionals.filter((each) => reachesOutsideWorkspace(each.word)).map((each) => ({ kind: "outsideWorkspace" as const, subject: each.word, index: each.index }));
}
