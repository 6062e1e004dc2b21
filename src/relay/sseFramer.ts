// Server-sent events framing (the WHATWG `text/event-stream` rules): lines end with LF, CRLF or CR; a blank
// line ends a frame; `data:` lines are joined with LF; `event:` names the frame; `id:`, `retry:`, other
// fields and `:` comments are read past. Written for the answer's hot path: a frame costs two or three
// `indexOf` and one slice of its data, with no object per frame and the `event:` value cut out only when
// asked for (the decoder needs it only for a frame without a JSON `type`).

/** Receives each frame's data; `eventType()` reads its `event:` line (undefined when it had none). */
export type FrameHandler = (data: string, eventType: () => string | undefined) => void;

const CR = 13;
const SPACE = 32;
const COLON = 58;

export class SseFramer {
  /** The start of a line not yet ended, kept across chunks (in pieces while no line end arrives). */
  private pending: string[] = [];
  /** Whether `pending` holds a CR, so the line ends of the joined text are normalized. */
  private pendingCr = false;
  private data = "";
  private dataLines = 0;
  /** Where the frame's `event:` value is: the text it is in, and its bounds (read only when asked for). */
  private eventText = "";
  private eventStart = 0;
  private eventEnd = 0;
  private readonly eventType = (): string | undefined => (this.eventEnd > this.eventStart ? this.eventText.slice(this.eventStart, this.eventEnd) : undefined);

  constructor(private readonly onFrame: FrameHandler) {}

  /** Feeds decoded text; calls `onFrame` for each frame it completes. */
  feed(chunk: string): void {
    let text = chunk;
    let hasCr = chunk.includes("\r");
    if (this.pending.length > 0) {
      this.pending.push(chunk);
      // A long line arriving in many chunks is joined once, when its end comes, not once per chunk.
      if (!hasCr && !chunk.includes("\n")) return;
      text = this.pending.join("");
      this.pending = [];
      hasCr ||= this.pendingCr;
      this.pendingCr = false;
    }
    if (hasCr) text = this.normalizeLineEnds(text);
    const rest = this.readLines(text);
    if (rest !== "") this.pending.push(rest);
  }

  /** Ends the body: a last line without its line end counts, then a frame it leaves open is completed. */
  end(): void {
    const rest = `${this.pending.join("")}\n\n`;
    this.pending = [];
    this.pendingCr = false;
    this.readLines(rest.includes("\r") ? rest.replace(/\r\n?/g, "\n") : rest);
  }

  /** Reads the LF-ended lines of `text`; returns what follows the last line end. */
  private readLines(text: string): string {
    let start = 0;
    let end = text.indexOf("\n");
    while (end !== -1) {
      if (end === start) this.dispatch();
      else this.readLine(text, start, end);
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    return start === 0 ? text : text.slice(start);
  }

  private readLine(text: string, start: number, end: number): void {
    const first = text.charCodeAt(start);
    if (first === COLON) return;
    if (first === 100 && text.startsWith("data:", start)) {
      const value = text.slice(text.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, end);
      this.data = this.dataLines === 0 ? value : `${this.data}\n${value}`;
      this.dataLines += 1;
      return;
    }
    if (first === 101 && text.startsWith("event:", start)) {
      this.eventText = text;
      this.eventStart = text.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6;
      this.eventEnd = end;
      return;
    }
    // `id:`, `retry:`, unknown fields: nothing the reader uses. A `data` or `event` line without a colon
    // is the field with an empty value.
    const colon = text.indexOf(":", start);
    const field = text.slice(start, colon === -1 || colon > end ? end : colon);
    if (field === "data") {
      this.data = this.dataLines === 0 ? "" : `${this.data}\n`;
      this.dataLines += 1;
    } else if (field === "event") {
      this.eventStart = this.eventEnd = 0;
    }
  }

  /**
   * CRLF and CR become LF. A CR at the very end may be the first half of a CRLF split across chunks: the line
   * it ends is kept pending, for the next chunk (or the end of the body) to decide.
   */
  private normalizeLineEnds(text: string): string {
    let complete = text;
    if (text.charCodeAt(text.length - 1) === CR) {
      const before = text.length - 2;
      const lastEnd = before < 0 ? -1 : Math.max(text.lastIndexOf("\n", before), text.lastIndexOf("\r", before));
      this.pending.push(text.slice(lastEnd + 1));
      this.pendingCr = true;
      complete = text.slice(0, lastEnd + 1);
    }
    return complete.replace(/\r\n?/g, "\n");
  }

  private dispatch(): void {
    if (this.dataLines > 0) this.onFrame(this.data, this.eventType);
    this.data = "";
    this.dataLines = 0;
    this.eventText = "";
    this.eventStart = this.eventEnd = 0;
  }
}

