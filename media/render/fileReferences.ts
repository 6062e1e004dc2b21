import type { ToHost } from "../../src/panel/protocol";

// File names and paths in a finished answer (`src/app.ts:12`, README.md, chatSession.ts) become links that open
// the file in the editor, as in VS Code's own chat, but only those the host confirmed are files of the
// workspace: the webview cannot look at the disk, so it asks (`findFileReferences`) and links what the answer
// (`fileReferences`) names. The links are built with DOM calls from text, after the sanitizer ran, and carry
// no href: a click posts `openFileReference` and the host checks the path again before opening it.

export interface FileReference {
  readonly path: string;
  /** 1-based, when the answer gave one (`app.ts:12`, `app.ts#L12`). */
  readonly line: number | null;
}

// A relative path whose last segment has an extension that starts with a letter (so "v1.2" and "e.g." are not
// paths); no scheme, no backslashes.
const PATH = String.raw`(?:\.{1,2}/)?(?:[\w@+~-][\w.@+~-]*/)*[\w@+~-][\w.@+~-]*\.[A-Za-z][A-Za-z0-9]*`;
const LOCATION = String.raw`(?::(\d+)(?:[:-]\d+)?|#L(\d+)(?:-L?\d+)?)?`;
const wholeReference = new RegExp(`^(${PATH})${LOCATION}$`);
// In running text: not in the middle of a word or a longer path, and a sentence's full stop is not part of it.
const referencesInText = new RegExp(String.raw`(?<![\w./@~+-])(${PATH})${LOCATION}(?![\w/@~+-]|\.\w)`, "g");
// "e.g." and "i.e." in running text are abbreviations, not files.
const abbreviation = /^[A-Za-z]\.[A-Za-z]$/;
/** Inline code longer than this is code, not a file name. */
const MAX_CODE_LENGTH = 300;

/** The file an inline code span names as a whole, or null. */
export function parseFileReference(text: string): FileReference | null {
  const match = text.length <= MAX_CODE_LENGTH ? wholeReference.exec(text.trim()) : null;
  return match === null ? null : referenceOf(match);
}

function referenceOf(match: RegExpExecArray): FileReference {
  const line = Number(match[2] ?? match[3] ?? 0);
  return { path: match[1]!, line: line > 0 ? line : null };
}

type Found =
  | { kind: "code"; element: HTMLElement; reference: FileReference }
  | { kind: "text"; node: Text; matches: { index: number; text: string; reference: FileReference }[] };

/** Inline code spans and plain text of `container` that name files; never inside links or code blocks. */
function findReferences(container: HTMLElement): Found[] {
  const found: Found[] = [];
  for (const code of container.querySelectorAll<HTMLElement>("code")) {
    if (code.closest("pre, a") !== null) continue;
    const reference = parseFileReference(code.textContent ?? "");
    if (reference !== null) found.push({ kind: "code", element: code, reference });
  }
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node !== null; node = walker.nextNode() as Text | null) {
    if (node.parentElement?.closest("a, code, pre, .code-block") !== null) continue;
    const matches = [...(node.data.matchAll(referencesInText) as IterableIterator<RegExpExecArray>)]
      .filter((match) => !abbreviation.test(match[0]))
      .map((match) => ({ index: match.index, text: match[0], reference: referenceOf(match) }));
    if (matches.length > 0) found.push({ kind: "text", node, matches });
  }
  return found;
}

function referenceLink(reference: FileReference, content: Node): HTMLElement {
  const link = document.createElement("a");
  link.className = "file-reference";
  link.dataset["filePath"] = reference.path;
  if (reference.line !== null) link.dataset["line"] = String(reference.line);
  link.title = reference.line === null ? reference.path : `${reference.path}:${reference.line}`;
  link.tabIndex = 0;
  link.setAttribute("role", "link");
  link.append(content);
  return link;
}

/** Turns the references of `container` whose path `isFile` into links; returns the paths not known yet. */
function linkReferences(container: HTMLElement, isFile: (path: string) => boolean | undefined): Set<string> {
  const unknown = new Set<string>();
  const known = (path: string) => {
    const answer = isFile(path);
    if (answer === undefined) unknown.add(path);
    return answer === true;
  };
  for (const found of findReferences(container)) {
    if (found.kind === "code") {
      if (!known(found.reference.path)) continue;
      const placeholder = document.createComment("");
      found.element.replaceWith(placeholder);
      placeholder.replaceWith(referenceLink(found.reference, found.element));
      continue;
    }
    const linked = found.matches.filter((match) => known(match.reference.path));
    if (linked.length === 0) continue;
    const parts: Node[] = [];
    let end = 0;
    for (const match of linked) {
      if (match.index > end) parts.push(document.createTextNode(found.node.data.slice(end, match.index)));
      parts.push(referenceLink(match.reference, document.createTextNode(match.text)));
      end = match.index + match.text.length;
    }
    if (end < found.node.data.length) parts.push(document.createTextNode(found.node.data.slice(end)));
    found.node.replaceWith(...parts);
  }
  return unknown;
}

export class FileReferenceLinker {
  /** Path -> whether the host said it is a workspace file. */
  private readonly known = new Map<string, boolean>();
  private readonly asked = new Set<string>();
  /** Answers with paths the host has not answered about yet. */
  private readonly waiting = new Set<HTMLElement>();

  constructor(private readonly post: (message: ToHost) => void) {}

  /** A finished answer: links the files known, asks the host about the paths it has not seen. */
  link(container: HTMLElement): void {
    const unknown = linkReferences(container, (path) => this.known.get(path));
    if (unknown.size === 0) return;
    this.waiting.add(container);
    const toAsk = [...unknown].filter((path) => !this.asked.has(path));
    if (toAsk.length === 0) return;
    for (const path of toAsk) this.asked.add(path);
    this.post({ type: "findFileReferences", paths: toAsk });
  }

  /** The host's answer: the waiting answers still on the page get their links. */
  checked(checked: readonly string[], files: readonly string[]): void {
    const existing = new Set(files);
    for (const path of checked) this.known.set(path, existing.has(path));
    for (const container of [...this.waiting]) {
      this.waiting.delete(container);
      if (container.isConnected) this.link(container);
    }
  }
}

let sharedLinker: FileReferenceLinker | undefined;

/** Called once by the panel's entry point; until then file names stay text (as in the render tests). */
export function configureFileReferences(post: (message: ToHost) => void): FileReferenceLinker {
  sharedLinker = new FileReferenceLinker(post);
  return sharedLinker;
}

/** Links the file references of a finished answer, if the panel configured them. */
export function linkFileReferences(container: HTMLElement): void {
  sharedLinker?.link(container);
}
