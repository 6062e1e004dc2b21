// The applyTo globs of .instructions.md files, matched in time bounded by the sizes of glob and path. They are
// repository text, and picomatch turns a glob into a regular expression that backtracks: `**/*a*a*a*a*a*a*a*a*a*a*a*a*b`
// took 4.9 s on a 37-character path and over 10 s on 47, the editor frozen meanwhile (no regular expression here).
// Matched the way picomatch matches them with `dot: true` (the tests compare the two on ordinary globs): `*` and `?`
// within one path segment, `**` as a whole segment for any number of segments, `[a-z]`/`[!a]` classes, `{a,b}`
// alternatives, `\` escapes. `*` is matched by the usual two-pointer wildcard walk (at most glob × segment steps),
// `**` by a memo over glob and path segments.

/** A glob with more alternatives than this after expanding its braces matches nothing (`{a,b}{c,d}…` doubles each time). */
export const MAX_GLOB_ALTERNATIVES = 256;
/** A longer glob matches nothing: no applyTo needs this many characters. */
export const MAX_GLOB_LENGTH = 2_000;

type Token = { kind: "literal"; char: string } | { kind: "any" } | { kind: "star" } | { kind: "class"; negated: boolean; ranges: Array<[string, string]> };
type Segment = "globstar" | Token[];

/** A matcher for "/"-separated relative paths; a glob past the limits above matches nothing. */
export function boundedGlobMatcher(globs: readonly string[]): (path: string) => boolean {
  const patterns = globs.flatMap((glob) => (glob.length > MAX_GLOB_LENGTH ? [] : (expandBraces(glob) ?? []))).map(parseSegments);
  return (path) => {
    const segments = path.split("/");
    return patterns.some((pattern) => matchSegments(pattern, segments));
  };
}

/** The glob's alternatives with every `{a,b}` expanded; null when there would be more than MAX_GLOB_ALTERNATIVES. */
export function expandBraces(glob: string): string[] | null {
  const open = findBrace(glob);
  if (open === null) return [glob];
  const { start, end, options } = open;
  const results: string[] = [];
  for (const option of options) {
    const expanded = expandBraces(glob.slice(0, start) + option + glob.slice(end + 1));
    if (expanded === null) return null;
    results.push(...expanded);
    if (results.length > MAX_GLOB_ALTERNATIVES) return null;
  }
  return results;
}

/** The first `{…}` with a top-level comma (a brace without one is literal text, as in picomatch), and its options. */
function findBrace(glob: string): { start: number; end: number; options: string[] } | null {
  for (let start = 0; start < glob.length; start += 1) {
    if (glob[start] === "\\") {
      start += 1;
      continue;
    }
    if (glob[start] !== "{") continue;
    let depth = 0;
    let from = start + 1;
    const options: string[] = [];
    for (let index = start; index < glob.length; index += 1) {
      const char = glob[index];
      if (char === "\\") {
        index += 1;
      } else if (char === "{") {
        depth += 1;
      } else if (char === "}") {
        depth -= 1;
        if (depth === 0) {
          if (options.length === 0) break;
          options.push(glob.slice(from, index));
          return { start, end: index, options };
        }
      } else if (char === "," && depth === 1) {
        options.push(glob.slice(from, index));
        from = index + 1;
      }
    }
  }
  return null;
}

function parseSegments(glob: string): Segment[] {
  return glob.split("/").map((segment) => (segment === "**" ? "globstar" : parseTokens(segment)));
}

function parseTokens(segment: string): Token[] {
  const tokens: Token[] = [];
  const chars = [...segment];
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index];
    if (char === "\\" && index + 1 < chars.length) {
      index += 1;
      tokens.push({ kind: "literal", char: chars[index] });
    } else if (char === "*") {
      // `**` inside a segment (`a**b`) is one star, as in picomatch.
      if (tokens[tokens.length - 1]?.kind !== "star") tokens.push({ kind: "star" });
    } else if (char === "?") {
      tokens.push({ kind: "any" });
    } else if (char === "[") {
      const parsed = parseClass(chars, index);
      if (parsed === null) tokens.push({ kind: "literal", char });
      else {
        tokens.push(parsed.token);
        index = parsed.end;
      }
    } else {
      tokens.push({ kind: "literal", char });
    }
  }
  return tokens;
}

/** `[abc]`, `[a-z]`, `[!a]` or `[^a]` from `start`; null when it is not closed (then `[` is literal). */
function parseClass(chars: readonly string[], start: number): { token: Token; end: number } | null {
  let index = start + 1;
  const negated = chars[index] === "!" || chars[index] === "^";
  if (negated) index += 1;
  const ranges: Array<[string, string]> = [];
  // A `]` right after the opening is a member, not the end.
  for (let first = true; index < chars.length; index += 1, first = false) {
    let char = chars[index];
    if (char === "]" && !first) return { token: { kind: "class", negated, ranges }, end: index };
    if (char === "\\" && index + 1 < chars.length) char = chars[(index += 1)];
    if (chars[index + 1] === "-" && index + 2 < chars.length && chars[index + 2] !== "]") {
      ranges.push([char, chars[index + 2]]);
      index += 2;
    } else {
      ranges.push([char, char]);
    }
  }
  return null;
}

/** Glob segments against path segments: `**` takes any number (memoized, so at most glob × path steps). */
function matchSegments(pattern: readonly Segment[], path: readonly string[]): boolean {
  const memo = new Map<number, boolean>();
  const width = path.length + 1;
  const match = (glob: number, at: number): boolean => {
    const key = glob * width + at;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (glob === pattern.length) result = at === path.length;
    else {
      const segment = pattern[glob];
      if (segment === "globstar") result = match(glob + 1, at) || (at < path.length && isPathSegment(path[at]) && match(glob, at + 1));
      else result = at < path.length && isPathSegment(path[at]) && matchTokens(segment, path[at]) && match(glob + 1, at + 1);
    }
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

/** Neither `*` nor `**` stands for "." or ".." (picomatch's rule); workspace paths have none. */
function isPathSegment(segment: string): boolean {
  return segment !== "." && segment !== "..";
}

/**
 * One segment against its tokens. After a star, a mismatch goes back to the last star only and lets it take one
 * character more: earlier stars never need to take more, so the walk is at most tokens × characters steps.
 */
function matchTokens(tokens: readonly Token[], segment: string): boolean {
  const chars = [...segment];
  let token = 0;
  let at = 0;
  let starToken = -1;
  let starAt = 0;
  while (at < chars.length) {
    const current = tokens[token];
    if (current !== undefined && current.kind !== "star" && matchesChar(current, chars[at])) {
      token += 1;
      at += 1;
    } else if (current?.kind === "star") {
      starToken = token;
      starAt = at;
      token += 1;
    } else if (starToken >= 0) {
      token = starToken + 1;
      starAt += 1;
      at = starAt;
    } else {
      return false;
    }
  }
  while (tokens[token]?.kind === "star") token += 1;
  // picomatch's `*` does not match an empty segment: a segment is never empty in a workspace path anyway.
  return token === tokens.length;
}

function matchesChar(token: Exclude<Token, { kind: "star" }>, char: string): boolean {
  switch (token.kind) {
    case "literal":
      return token.char === char;
    case "any":
      return true;
    case "class":
      return token.ranges.some(([from, to]) => from <= char && char <= to) !== token.negated;
  }
}
