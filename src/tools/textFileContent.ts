// How the file tools tell text from binary and count lines, kept in one place so they agree.

/** Content whose first bytes hold a NUL is binary: the same test git uses. */
export function isBinaryContent(content: Buffer, sniffBytes = 8000): boolean {
  return content.subarray(0, sniffBytes).includes(0);
}

/** Splits text into lines the way an editor counts them: a final newline does not start another line. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function decodeUtf8(content: Buffer): string {
  const text = content.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
