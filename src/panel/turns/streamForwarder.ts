// The answer text of the turn that is streaming, as ChatSession hands it over (`onAnswerDelta`): each
// piece is appended and passed on once. Nothing here looks at the whole answer, so a delta costs the same
// at the end of a long answer as at its start. The text kept is what the webview has been sent, for a
// webview that reloads mid-answer and for a turn patch during the stream.

export interface DeltaSink {
  answerDelta(turnId: string, text: string): void;
}

export class StreamForwarder {
  private turnId: string | null = null;
  // A string built with += is a rope in V8: appending does not copy what came before.
  private text = "";

  constructor(private readonly sink: DeltaSink) {}

  /** The turn that streams now; its text starts empty. */
  start(turnId: string): void {
    this.turnId = turnId;
    this.text = "";
  }

  /** Text that arrived for `turnId`; a turn that was not started yet starts here. */
  forward(turnId: string, text: string): void {
    if (turnId !== this.turnId) this.start(turnId);
    this.text += text;
    this.sink.answerDelta(turnId, text);
  }

  /** The turn ended: its settled text (from the conversation) is authoritative from now on. */
  end(): void {
    this.turnId = null;
    this.text = "";
  }

  get streamingTurnId(): string | null {
    return this.turnId;
  }

  liveText(turnId: string): string | null {
    return turnId === this.turnId ? this.text : null;
  }
}
