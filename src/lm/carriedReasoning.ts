// VS Code's chat keeps the conversation and hands it back whole on each request, but only as text, tool calls and
// tool results: a model's reasoning is a proposed-API part that an installed extension neither gets nor gives. A
// thinking model over Chat Completions (DeepSeek V4, Kimi K2) refuses a follow-up whose assistant tool-call message
// lacks the `reasoning_content` it streamed (HTTP 400), so every tool loop in VS Code's chat would fail on its second
// request. The reasoning is therefore kept here, by the call ids of the answer it came with, and put back in front
// of those calls when VS Code sends them again: verbatim, in the field it came in (chatReasoning.ts), to the relay
// it came from.
import { chatReasoningOf } from "../relay/chatCompletions/chatReasoning";
import type { InputItem, OutputItem } from "../relay/types";

/** Answers remembered; VS Code's chat sends a conversation's calls back within a few requests. */
const REMEMBERED_ANSWERS = 200;

export class CarriedReasoning {
  /** `${relay}\u0000${call_id}` -> the reasoning item the call's answer began with. */
  private readonly byCall = new Map<string, OutputItem>();

  /** A completed answer: its reasoning is kept under each of its calls. */
  remember(relay: string, output: readonly OutputItem[]): void {
    let reasoning: OutputItem | null = null;
    for (const item of output) {
      if (item.type === "reasoning") reasoning = chatReasoningOf(item) === null ? null : item;
      else if (item.type === "function_call" && reasoning !== null && typeof item.call_id === "string") this.byCall.set(keyOf(relay, item.call_id), reasoning);
    }
    // A Map keeps insertion order: the oldest answers go first.
    while (this.byCall.size > REMEMBERED_ANSWERS) this.byCall.delete(this.byCall.keys().next().value as string);
  }

  /**
   * `input` with each remembered reasoning item before the assistant turn that holds its calls (before that
   * turn's text, when it has some), once per answer.
   */
  restore(relay: string, input: readonly InputItem[]): InputItem[] {
    const restored: InputItem[] = [];
    const placed = new Set<OutputItem>();
    for (const item of input) {
      const reasoning = item.type === "function_call" && typeof item.call_id === "string" ? this.byCall.get(keyOf(relay, item.call_id)) : undefined;
      if (reasoning !== undefined && !placed.has(reasoning)) {
        placed.add(reasoning);
        const previous = restored[restored.length - 1];
        const startsWithText = previous !== undefined && previous.type === "message" && previous.role === "assistant";
        restored.splice(startsWithText ? restored.length - 1 : restored.length, 0, reasoning);
      }
      restored.push(item);
    }
    return restored;
  }
}

function keyOf(relay: string, callId: string): string {
  return `${relay}\u0000${callId}`;
}
