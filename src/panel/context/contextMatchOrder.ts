import type { FileMatchView } from "../protocol";

// The order of the `#` menu's folders, files and symbols. Each list comes ranked on its own (fuzzysort for paths,
// the language server for symbols) and a fuzzy path match scores well on scattered letters: "greet" matched
// .github/prompts/review.prompt.md above the function greet(). What the person typed as a whole name comes first
// (a symbol, a file with or without its extension, a folder), then names that start with it, then the rest in
// the order they came.

/** How close a match's name is to the query, closest first. */
const EXACT_NAME = 0;
const NAME_IGNORING_CASE = 1;
const NAME_START = 2;
const OTHER = 3;
type Closeness = typeof EXACT_NAME | typeof NAME_IGNORING_CASE | typeof NAME_START | typeof OTHER;

/** The matches, a name equal to the query first, then names starting with it; otherwise as given. */
export function exactNamesFirst(query: string, matches: readonly FileMatchView[]): FileMatchView[] {
  const wanted = query.trim();
  if (wanted === "") return [...matches];
  return matches
    .map((match, index) => ({ match, index, closeness: closenessOf(wanted, namesOf(match)) }))
    .sort((a, b) => a.closeness - b.closeness || a.index - b.index)
    .map(({ match }) => match);
}

/** The names a person would type for a match: a symbol's name, a file's name with and without its extensions, a folder's name. */
function namesOf(match: FileMatchView): string[] {
  if (match.kind === "symbol") return [match.name ?? "", (match.name ?? "").replace(/\(.*\)$/, "")];
  const name = match.path.slice(match.path.lastIndexOf("/") + 1);
  if (match.kind === "folder") return [name];
  const firstDot = name.indexOf(".", 1);
  const lastDot = name.lastIndexOf(".");
  return [name, ...(lastDot > 0 ? [name.slice(0, lastDot)] : []), ...(firstDot > 0 && firstDot !== lastDot ? [name.slice(0, firstDot)] : [])];
}

function closenessOf(query: string, names: readonly string[]): Closeness {
  if (names.includes(query)) return EXACT_NAME;
  const lower = query.toLowerCase();
  const lowerNames = names.map((name) => name.toLowerCase());
  if (lowerNames.includes(lower)) return NAME_IGNORING_CASE;
  return lowerNames.some((name) => name.startsWith(lower)) ? NAME_START : OTHER;
}
