import { briefTurnView, WHOLE_TURNS_AT_OPEN, worthBriefing } from "./turns/briefTurn";
import type { ApprovalView, PanelChange, PanelFields, PanelState, ReceiptView, ToWebview, TurnView } from "./protocol";

// Keeps the webview in step with the host after its snapshot, sending only what changed. Pure (no
// vscode): the post function and the timers are passed in, so the ordering rules are tested on Node.
//
// Ordering is what keeps streamed text right: changes are computed when they are posted (never when they
// were noticed), and pending answer deltas are always posted before a patch. So a turn patch carries the
// text the webview has after those deltas, and a delta is never applied twice or lost.
//
// A long conversation's older turns are first sent brief (briefTurn.ts); `loadTurns` sends them whole.

/** Where the current state comes from; asked only for the parts that are posted. */
export interface PanelSource {
  fields(): PanelFields;
  /** The turns on screen, in order. */
  turnIds(): readonly string[];
  turn(turnId: string): TurnView | null;
  receipt(turnId: string, index: number): ReceiptView | null;
  approvals(): ApprovalView[];
}

export interface PanelSyncTimers {
  /** Runs `work` after the current task: several changes in one tick become one patch. */
  soon(work: () => void): void;
  /** Runs `work` after about one frame (FRAME_MS, or `delayMs` when given): streamed text is posted at most once per frame. */
  afterFrame(work: () => void, delayMs?: number): { cancel(): void };
  /** A monotonic clock in milliseconds: whether a frame has passed since text was last posted. */
  now(): number;
}

/** One 60 Hz frame: streamed text is posted at most this often, after the first piece. */
export const FRAME_MS = 16;

export const realTimers: PanelSyncTimers = {
  soon: (work) => queueMicrotask(work),
  afterFrame: (work, delayMs = FRAME_MS) => {
    const timer = setTimeout(work, delayMs);
    return { cancel: () => clearTimeout(timer) };
  },
  now: () => performance.now(),
};

type FieldName = keyof PanelFields;

/**
 * When a change is posted: `soon` after the current task, or `withinFrame`, with the next patch if one comes
 * within about a frame and else on its own. A request's receipt and a turn's end are followed within
 * milliseconds by the turn's save and the panel's busy flag and list: posted together, a turn ends with one
 * patch (one computation of the panel's fields, one message) instead of three.
 */
export type Timing = "soon" | "withinFrame";

export class PanelSync {
  /** Null until the webview asked for its snapshot: nothing is posted to a page that is not listening. */
  private sentFields: Map<FieldName, { value: unknown; json: string }> | null = null;
  private sentOrder: readonly string[] = [];
  private sentTurnIds = new Set<string>();
  /** Turns on the page as brief views: the page asks for them whole (`loadTurns`). */
  private briefTurnIds = new Set<string>();
  private sentApprovals = "[]";
  private readonly dirtyTurns = new Set<string>();
  private readonly pendingReceipts: Array<{ turnId: string; index: number }> = [];
  private pendingDeltas = new Map<string, string>();
  private deltaFlush: { cancel(): void } | null = null;
  /** When text was last posted, and for which turn: a turn's first words, or words after a quiet frame, go at once. */
  private lastDeltaPost: { at: number; turnId: string } | null = null;
  private patchScheduled = false;
  /** A patch that may wait up to a frame for the changes that follow (see `Timing`). */
  private framePatch: { cancel(): void } | null = null;

  constructor(
    private readonly source: PanelSource,
    private readonly post: (message: ToWebview) => void,
    private readonly strings: () => Record<string, string>,
    private readonly timers: PanelSyncTimers = realTimers,
    private readonly locale: () => string = () => "en",
  ) {}

  /** The whole state, as `ready` gets it; also what the extension's API returns. */
  state(): PanelState {
    return { ...this.source.fields(), turns: this.source.turnIds().flatMap((id) => this.source.turn(id) ?? []), approvals: this.source.approvals() };
  }

  /** The webview (re)loaded: it gets everything once, and patches from then on. */
  sendSnapshot(): void {
    this.cancelDeltas();
    this.framePatch?.cancel();
    this.framePatch = null;
    this.pendingDeltas = new Map();
    this.dirtyTurns.clear();
    this.pendingReceipts.length = 0;
    const whole = this.state();
    this.briefTurnIds = new Set();
    const state = { ...whole, turns: whole.turns.map((turn, index) => this.opening(turn, index, whole.turns.length)) };
    this.sentFields = new Map();
    for (const [name, value] of Object.entries(this.source.fields()) as Array<[FieldName, unknown]>) this.sentFields.set(name, { value, json: jsonOf(value) });
    this.setSentOrder(state.turns.map((turn) => turn.id));
    this.sentApprovals = JSON.stringify(state.approvals);
    this.post({ type: "snapshot", state, strings: this.strings(), locale: this.locale() });
  }

  /** Told of each change while no page listens (nothing is posted then), for what follows the state without it. */
  unheard: (() => void) | undefined;

  /** Header fields, the turn order or the approvals may have changed. */
  changed(): void {
    if (this.sentFields === null) this.unheard?.();
    this.schedulePatch();
  }

  turnChanged(turnId: string, timing: Timing = "soon"): void {
    this.dirtyTurns.add(turnId);
    this.schedule(timing);
  }

  /** The page asks for turns it has as brief views; those still on screen go whole in the next patch. */
  loadTurns(turnIds: readonly string[]): void {
    for (const turnId of turnIds) if (this.briefTurnIds.has(turnId)) this.turnChanged(turnId);
  }

  receiptAdded(turnId: string, index: number, timing: Timing = "soon"): void {
    this.pendingReceipts.push({ turnId, index });
    this.schedule(timing);
  }

  /** The running request's wait for content (contentWait.ts); not ordered with patches, it only labels the turn. */
  contentWait(turnId: string, seconds: number | null): void {
    if (this.sentFields !== null) this.post({ type: "contentWait", turnId, seconds });
  }

  /**
   * Streamed text for a turn. A turn the webview does not have yet is sent whole by the next patch (with
   * this text in it, since the source already has it), so the delta itself is not posted.
   *
   * The first text of a turn, and text after a frame without any, is posted at once: holding it for a frame
   * would only make the first words late. What follows within the frame is batched and posted when the frame
   * since the last post ends, so the page gets text at most once a frame and never waits longer than one.
   */
  answerDelta(turnId: string, text: string): void {
    if (this.sentFields === null || text === "") return;
    if (!this.sentTurnIds.has(turnId) || this.dirtyTurns.has(turnId) || this.briefTurnIds.has(turnId)) {
      this.turnChanged(turnId);
      return;
    }
    this.pendingDeltas.set(turnId, (this.pendingDeltas.get(turnId) ?? "") + text);
    if (this.deltaFlush !== null) return;
    const last = this.lastDeltaPost;
    const sinceLast = last === null ? Infinity : this.timers.now() - last.at;
    if (last?.turnId !== turnId || sinceLast >= FRAME_MS) {
      this.postDeltas();
      return;
    }
    this.deltaFlush = this.timers.afterFrame(() => {
      this.deltaFlush = null;
      this.postDeltas();
    }, FRAME_MS - sinceLast);
  }

  /** Posts whatever is pending now (tests and benchmarks; the timers do it otherwise). */
  flush(): void {
    this.postDeltas();
    this.postPatch();
  }

  private schedule(timing: Timing): void {
    if (timing === "soon") this.schedulePatch();
    else if (this.sentFields !== null && !this.patchScheduled) this.framePatch ??= this.timers.afterFrame(() => this.postPatch());
  }

  private schedulePatch(): void {
    if (this.patchScheduled || this.sentFields === null) return;
    this.patchScheduled = true;
    this.timers.soon(() => this.postPatch());
  }

  private cancelDeltas(): void {
    this.deltaFlush?.cancel();
    this.deltaFlush = null;
  }

  private postDeltas(): void {
    this.cancelDeltas();
    if (this.pendingDeltas.size === 0) return;
    const deltas = this.pendingDeltas;
    this.pendingDeltas = new Map();
    const at = this.timers.now();
    for (const [turnId, text] of deltas) {
      this.post({ type: "answerDelta", turnId, text });
      this.lastDeltaPost = { at, turnId };
    }
  }

  private postPatch(): void {
    this.patchScheduled = false;
    this.framePatch?.cancel();
    this.framePatch = null;
    if (this.sentFields === null) return;
    // Deltas first: the turns below are computed now, with the text those deltas carry.
    this.postDeltas();
    const changes = [...this.fieldChanges(), ...this.turnChanges(), ...this.receiptChanges(), ...this.approvalChanges()];
    if (changes.length > 0) this.post({ type: "patch", changes });
  }

  private fieldChanges(): PanelChange[] {
    const sent = this.sentFields;
    if (sent === null) return [];
    const changed: Partial<Record<FieldName, unknown>> = {};
    let any = false;
    for (const [name, value] of Object.entries(this.source.fields()) as Array<[FieldName, unknown]>) {
      const previous = sent.get(name);
      // The same object is unchanged; otherwise compare by value (the fields are small).
      if (previous !== undefined && previous.value === value) continue;
      const json = jsonOf(value);
      sent.set(name, { value, json });
      if (previous !== undefined && previous.json === json) continue;
      changed[name] = value;
      any = true;
    }
    return any ? [{ kind: "fields", fields: changed as Partial<PanelFields> }] : [];
  }

  private turnChanges(): PanelChange[] {
    const order = this.source.turnIds();
    const changes: PanelChange[] = [];
    order.forEach((turnId, index) => {
      const sent = this.sentTurnIds.has(turnId);
      if (sent && !this.dirtyTurns.has(turnId)) return;
      const turn = this.source.turn(turnId);
      if (turn === null) return;
      // A turn the page has gets its whole view; a new one (a conversation opening) may go brief.
      if (sent) this.briefTurnIds.delete(turnId);
      changes.push({ kind: "turn", turn: sent ? turn : this.opening(turn, index, order.length) });
    });
    this.dirtyTurns.clear();
    if (!sameOrder(order, this.sentOrder)) {
      changes.push({ kind: "turnOrder", turnIds: [...order] });
      this.setSentOrder([...order]);
    }
    return changes;
  }

  private receiptChanges(): PanelChange[] {
    const changes: PanelChange[] = [];
    for (const { turnId, index } of this.pendingReceipts.splice(0)) {
      const receipt = this.source.receipt(turnId, index);
      // A brief turn's receipts come with its whole view.
      if (receipt !== null && this.sentTurnIds.has(turnId) && !this.briefTurnIds.has(turnId)) changes.push({ kind: "receipt", turnId, index, receipt });
    }
    return changes;
  }

  private setSentOrder(order: readonly string[]): void {
    this.sentOrder = order;
    this.sentTurnIds = new Set(order);
    for (const turnId of this.briefTurnIds) if (!this.sentTurnIds.has(turnId)) this.briefTurnIds.delete(turnId);
  }

  /** A turn the page does not have yet, at `index` of `count`: older ones of a long list go brief. */
  private opening(turn: TurnView, index: number, count: number): TurnView {
    if (index >= count - WHOLE_TURNS_AT_OPEN || !worthBriefing(turn, count)) return turn;
    this.briefTurnIds.add(turn.id);
    return briefTurnView(turn);
  }

  private approvalChanges(): PanelChange[] {
    const approvals = this.source.approvals();
    const json = JSON.stringify(approvals);
    if (json === this.sentApprovals) return [];
    this.sentApprovals = json;
    return [{ kind: "approvals", approvals }];
  }
}

/** The JSON of frozen objects, which cannot change: computed once each. */
const frozenJson = new WeakMap<object, string>();

/**
 * JSON.stringify's text for a field. A list's frozen elements (the conversation list's entries, kept
 * while unchanged) are serialized once, so a list of hundreds that gained one entry costs one entry.
 */
export function jsonOf(value: unknown): string {
  if (!Array.isArray(value)) return JSON.stringify(value);
  const parts = value.map((element: unknown) => {
    if (typeof element !== "object" || element === null || !Object.isFrozen(element)) return JSON.stringify(element) ?? "null";
    let json = frozenJson.get(element);
    if (json === undefined) {
      json = JSON.stringify(element);
      frozenJson.set(element, json);
    }
    return json;
  });
  return `[${parts.join(",")}]`;
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}
