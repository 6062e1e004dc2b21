import { linesWithBreaks } from "./textHunks";

// Where a code snippet from an answer belongs in a file: the whole file when it is most of the file, else the
// declaration it redefines (the editor's document symbols, or top-level declarations found in the text), else
// the lines its first and last distinctive lines match, else appended when it declares something new. More than
// one place means the person chooses; none of this needs the editor.

/** A declaration in the file: a document symbol from the editor, or one found in the text. */
export interface DeclarationSpan {
  readonly name: string;
  /** 0-based, inclusive. */
  readonly startLine: number;
  /** 0-based, inclusive. */
  readonly endLine: number;
}

export type SnippetPlaceKind = "whole-file" | "declaration" | "lines" | "append";

export interface SnippetPlace {
  readonly kind: SnippetPlaceKind;
  /** The declaration's name for "declaration". */
  readonly name?: string;
  /** 0-based first line replaced (the line count of the file for "append"). */
  readonly startLine: number;
  /** 0-based line after the last one replaced. */
  readonly endLine: number;
  /** The whole file with the snippet in this place. */
  readonly text: string;
}

/** How much of the file's lines a snippet must repeat to be taken as the whole file. */
const WHOLE_FILE_SHARE = 0.6;

/**
 * The places `snippet` fits in `fileText`, best first; one place is unambiguous, several are for the person to
 * pick from. `declarations` are the editor's document symbols, or null to find declarations in the text.
 */
export function placeSnippet(fileText: string, snippet: string, declarations: readonly DeclarationSpan[] | null): SnippetPlace[] {
  const lineBreak = fileText.includes("\r\n") ? "\r\n" : "\n";
  const code = snippet.replace(/\r?\n/g, lineBreak);
  const fileLines = linesWithBreaks(fileText);
  const codeLines = linesWithBreaks(code.endsWith(lineBreak) ? code : code + lineBreak);
  const wholeFile: SnippetPlace = { kind: "whole-file", startLine: 0, endLine: fileLines.length, text: code };
  if (fileText.trim() === "" || looksLikeWholeFile(fileLines, codeLines)) return [wholeFile];

  const replaced = (kind: SnippetPlaceKind, startLine: number, endLine: number, name?: string): SnippetPlace => {
    const indentation = leadingWhitespace(fileLines[firstNonBlank(fileLines, startLine, endLine)] ?? "");
    const inserted = reindent(codeLines, indentation);
    return { kind, ...(name === undefined ? {} : { name }), startLine, endLine, text: [...fileLines.slice(0, startLine), ...inserted, ...fileLines.slice(endLine)].join("") };
  };

  const names = declaredNames(codeLines);
  const redefined = names.length === 1 && isOneDeclaration(codeLines) ? names[0]! : null;
  if (redefined !== null) {
    const spans = (declarations ?? declarationsInText(fileLines)).filter((span) => baseName(span.name) === redefined);
    if (spans.length > 0) {
      const withComments = startsWithCommentOrDecorator(codeLines);
      return spans.map((span) => replaced("declaration", withComments ? startOfLeadingComments(fileLines, span.startLine) : span.startLine, span.endLine + 1, redefined));
    }
  }
  const matched = anchoredRegions(fileLines, codeLines);
  if (matched.length > 0) return matched.map(({ startLine, endLine }) => replaced("lines", startLine, endLine));

  const lastLine = fileLines[fileLines.length - 1] ?? "";
  const separator = (lastLine.endsWith("\n") ? "" : lineBreak) + (lastLine.trim() === "" ? "" : lineBreak);
  const appended: SnippetPlace = { kind: "append", startLine: fileLines.length, endLine: fileLines.length, text: fileText + separator + reindent(codeLines, "").join("") };
  return names.length > 0 ? [appended] : [appended, wholeFile];
}

function looksLikeWholeFile(fileLines: readonly string[], codeLines: readonly string[]): boolean {
  const fileContent = fileLines.map((line) => line.trim()).filter((line) => line !== "");
  if (fileContent.length === 0) return true;
  // Each snippet line counts once, so a closing brace repeated in the file is not matched by one brace.
  const available = new Map<string, number>();
  for (const line of codeLines) {
    const trimmed = line.trim();
    if (trimmed !== "") available.set(trimmed, (available.get(trimmed) ?? 0) + 1);
  }
  let shared = 0;
  for (const line of fileContent) {
    const left = available.get(line) ?? 0;
    if (left > 0) {
      shared++;
      available.set(line, left - 1);
    }
  }
  const share = shared / fileContent.length;
  const codeContent = codeLines.map((line) => line.trim()).filter((line) => line !== "");
  // A snippet that starts as the file starts (its imports, its header) and repeats most of it is the file.
  return share >= 0.9 || (share >= WHOLE_FILE_SHARE && codeContent[0] === fileContent[0]);
}

const KEYWORD_DECLARATION =
  /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|namespace|const|let|var|def|fn|func|struct|trait|impl|module)\s+([A-Za-z_$][\w$]*)/;
const GO_METHOD = /^\s*func\s*\([^)]*\)\s*([A-Za-z_]\w*)\s*\(/;
const METHOD = /^\s*(?:(?:public|private|protected|static|async|override|readonly|abstract|get|set)\s+)*\*?([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\(.*\)\s*(?::\s*[^{=;]+)?\{\s*$/;
const NOT_METHODS = new Set(["if", "for", "while", "switch", "catch", "function", "return", "with", "else"]);

/** The name a line declares, or null. */
function declaredName(line: string): string | null {
  const match = GO_METHOD.exec(line) ?? KEYWORD_DECLARATION.exec(line) ?? METHOD.exec(line);
  const name = match?.[1];
  return name === undefined || NOT_METHODS.has(name) ? null : name;
}

/** The names declared at the snippet's outermost indentation. */
function declaredNames(codeLines: readonly string[]): string[] {
  const outermost = Math.min(...codeLines.filter((line) => line.trim() !== "").map((line) => leadingWhitespace(line).length));
  const names = new Set<string>();
  for (const line of codeLines) {
    if (line.trim() === "" || leadingWhitespace(line).length !== outermost) continue;
    const name = declaredName(line);
    if (name !== null) names.add(name);
  }
  return [...names];
}

/** The snippet is one declaration (its comments aside), not a declaration followed by other statements. */
function isOneDeclaration(codeLines: readonly string[]): boolean {
  const start = codeLines.findIndex((line) => declaredName(line) !== null);
  let lastContent = codeLines.length - 1;
  while (lastContent > 0 && codeLines[lastContent]!.trim() === "") lastContent--;
  return start !== -1 && declarationEnd(codeLines, start) >= lastContent;
}

/** Editors' symbol names may carry a signature ("render(props)"); the name is what comes before it. */
function baseName(symbolName: string): string {
  return symbolName.replace(/[(<:].*$/s, "").trim();
}

/** Declarations found in the text, where no language server gives symbols: braces or indentation end them. */
export function declarationsInText(fileLines: readonly string[]): DeclarationSpan[] {
  const spans: DeclarationSpan[] = [];
  fileLines.forEach((line, index) => {
    const name = declaredName(line);
    if (name !== null) spans.push({ name, startLine: index, endLine: declarationEnd(fileLines, index) });
  });
  return spans;
}

function declarationEnd(fileLines: readonly string[], start: number): number {
  let depth = 0;
  let opened = false;
  for (let index = start; index < fileLines.length; index++) {
    const code = withoutStringsAndComments(fileLines[index]!);
    for (const character of code) {
      if (character === "{") {
        depth++;
        opened = true;
      } else if (character === "}") depth--;
    }
    if (opened && depth <= 0) return index;
    if (!opened) {
      if (code.trimEnd().endsWith(";")) return index;
      if (code.trimEnd().endsWith(":")) return indentedBlockEnd(fileLines, start);
      if (index - start >= 4) return start;
    }
  }
  return opened ? fileLines.length - 1 : start;
}

/** Python-like blocks: until the next non-blank line indented no deeper than the declaration. */
function indentedBlockEnd(fileLines: readonly string[], start: number): number {
  const indentation = leadingWhitespace(fileLines[start]!).length;
  let end = start;
  for (let index = start + 1; index < fileLines.length; index++) {
    const line = fileLines[index]!;
    if (line.trim() === "") continue;
    if (leadingWhitespace(line).length <= indentation) break;
    end = index;
  }
  return end;
}

function withoutStringsAndComments(line: string): string {
  return line
    .replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`/g, '""')
    .replace(/\/\/.*$|#(?![\[!]).*$/s, "")
    .replace(/\/\*.*?\*\//g, "");
}

const COMMENT_OR_DECORATOR = /^\s*(?:\/\/|\/\*|\*|#|@|""")/;

function startsWithCommentOrDecorator(codeLines: readonly string[]): boolean {
  const first = codeLines.find((line) => line.trim() !== "");
  return first !== undefined && COMMENT_OR_DECORATOR.test(first);
}

/** The snippet brings its own doc comment: the file's comment right above the declaration is replaced with it. */
function startOfLeadingComments(fileLines: readonly string[], start: number): number {
  let line = start;
  while (line > 0 && COMMENT_OR_DECORATOR.test(fileLines[line - 1]!)) line--;
  return line;
}

/** A line that can anchor a snippet: some letters or digits, not a lone brace. */
function isDistinctive(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= 4 && /[\p{L}\p{N}]/u.test(trimmed);
}

/** Regions of the file that start with the snippet's first distinctive line and end with its last one. */
function anchoredRegions(fileLines: readonly string[], codeLines: readonly string[]): { startLine: number; endLine: number }[] {
  const firstAnchor = codeLines.findIndex(isDistinctive);
  if (firstAnchor === -1) return [];
  let lastAnchor = codeLines.length - 1;
  while (!isDistinctive(codeLines[lastAnchor]!)) lastAnchor--;
  const trimmedFile = fileLines.map((line) => line.trim());
  const first = codeLines[firstAnchor]!.trim();
  const last = codeLines[lastAnchor]!.trim();
  const span = lastAnchor - firstAnchor;
  // Lines the snippet has before its first anchor and after its last one (blank lines and braces).
  const linesBefore = codeLines.slice(0, firstAnchor).filter((line) => line.trim() !== "").length;
  const linesAfter = codeLines.slice(lastAnchor + 1).filter((line) => line.trim() !== "").length;
  const regions: { startLine: number; endLine: number }[] = [];
  trimmedFile.forEach((line, start) => {
    if (line !== first) return;
    let end = -1;
    for (let candidate = start; candidate < trimmedFile.length && candidate - start <= span * 2 + 10; candidate++) {
      if (trimmedFile[candidate] === last && (end === -1 || Math.abs(candidate - start - span) < Math.abs(end - start - span))) end = candidate;
    }
    if (end === -1) return;
    regions.push({ startLine: Math.max(0, start - linesBefore), endLine: Math.min(fileLines.length, end + 1 + linesAfter) });
  });
  return regions;
}

/** The snippet moved to `indentation`, its inner indentation kept. */
function reindent(codeLines: readonly string[], indentation: string): string[] {
  const content = codeLines.filter((line) => line.trim() !== "");
  const outermost = content.reduce((shortest, line) => {
    const own = leadingWhitespace(line);
    return own.length < shortest.length ? own : shortest;
  }, leadingWhitespace(content[0] ?? ""));
  return codeLines.map((line) => (line.trim() === "" || !line.startsWith(outermost) ? line : indentation + line.slice(outermost.length)));
}

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function firstNonBlank(lines: readonly string[], start: number, end: number): number {
  for (let index = start; index < end; index++) if (lines[index]!.trim() !== "" && !COMMENT_OR_DECORATOR.test(lines[index]!)) return index;
  return start;
}
