/**
 * Applies markdown-it's input normalization (CR LF and lone CR to LF, NUL to U+FFFD) chunk by chunk, so
 * the streaming view can slice its text at line starts that agree with markdown-it's line numbers. A CR
 * LF pair split across two chunks is handled by remembering whether the last chunk ended with CR.
 */
export class NewlineNormalizer {
  private previousChunkEndedWithCarriageReturn = false;

  normalize(chunk: string): string {
    if (chunk.length === 0) return chunk;
    const text = this.previousChunkEndedWithCarriageReturn && chunk.charCodeAt(0) === 0x0a ? chunk.slice(1) : chunk;
    this.previousChunkEndedWithCarriageReturn = chunk.charCodeAt(chunk.length - 1) === 0x0d;
    if (text.indexOf("\r") === -1 && text.indexOf("\0") === -1) return text;
    return text.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD");
  }

  reset(): void {
    this.previousChunkEndedWithCarriageReturn = false;
  }
}
