// Glob matching for "/"-separated relative paths, as find_files, search_text's include and files.exclude use it.
import picomatch from "picomatch";

/**
 * A pattern without "/" matches a name at any depth ("*.ts" finds src/a.ts), which is what people and models
 * usually mean; a pattern with "/" is matched against the whole path from the workspace folder.
 */
export function createPathMatcher(pattern: string, options: { caseSensitive?: boolean } = {}): (relativePath: string) => boolean {
  // Models and Windows users write "src\*.ts"; a backslash that escapes nothing glob-special is a separator.
  const normalized = pattern.replace(/\\(?![*?[\]{}!\\])/g, "/").replace(/^\.\//, "").replace(/^\/+/, "");
  return picomatch(normalized, {
    basename: !normalized.includes("/"),
    nocase: options.caseSensitive === false,
    // Dotfiles are ordinary files here: "**/*" must list .gitignore, as files.exclude and the walker see them.
    dot: true,
    // Without it picomatch reads "[!abc]" as "one of !, a, b, c"; shells and VS Code read it as a negated class.
    posix: true,
  });
}
