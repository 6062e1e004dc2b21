// A small glob matcher for "/"-separated relative paths. Written here because no glob library is a declared
// dependency (picomatch/minimatch exist only transitively); replace with picomatch once one is added.
// Supports: * ? ** [abc] [!abc] {a,b} and backslash escapes.

export function globToRegExpSource(pattern: string): string {
  let source = "";
  let braceDepth = 0;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === "\\" && index + 1 < pattern.length) {
      source += escapeRegExp(pattern[++index] as string);
    } else if (char === "*") {
      if (pattern[index + 1] === "*") {
        const atSegmentStart = index === 0 || pattern[index - 1] === "/";
        let end = index + 2;
        while (pattern[end] === "*") end++;
        const atSegmentEnd = end === pattern.length || pattern[end] === "/";
        if (atSegmentStart && atSegmentEnd) {
          // "**/" may match zero folders; a trailing "**" matches everything below.
          if (pattern[end] === "/") {
            source += "(?:[^/]*/)*";
            index = end;
          } else {
            source += ".*";
            index = end - 1;
          }
          continue;
        }
        index = end - 1;
      }
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "[") {
      const close = pattern.indexOf("]", index + 2);
      if (close === -1) {
        source += "\\[";
      } else {
        let body = pattern.slice(index + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        source += `(?![/])[${body.replace(/\\/g, "\\\\").replace(/\]/g, "\\]")}]`;
        index = close;
      }
    } else if (char === "{") {
      braceDepth++;
      source += "(?:";
    } else if (char === "}" && braceDepth > 0) {
      braceDepth--;
      source += ")";
    } else if (char === "," && braceDepth > 0) {
      source += "|";
    } else {
      source += escapeRegExp(char);
    }
  }
  // An unclosed brace is a typo; treating it as a literal would need backtracking, so close it instead.
  source += ")".repeat(braceDepth);
  return source;
}

export function globToRegExp(pattern: string, options: { caseSensitive?: boolean } = {}): RegExp {
  return new RegExp(`^${globToRegExpSource(pattern)}$`, options.caseSensitive === false ? "i" : "");
}

/**
 * A pattern without "/" matches a name at any depth ("*.ts" finds src/a.ts), which is what people and models
 * usually mean; a pattern with "/" is matched against the whole path from the workspace folder.
 */
export function createPathMatcher(pattern: string, options: { caseSensitive?: boolean } = {}): (relativePath: string) => boolean {
  const normalized = pattern.replace(/\\(?![*?[\]{}!\\])/g, "/").replace(/^\.\//, "").replace(/^\/+/, "");
  const expression = globToRegExp(normalized.includes("/") ? normalized : `**/${normalized}`, options);
  return (relativePath) => expression.test(relativePath);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
