import type { AssembledInstructions } from "../../instructions/assembleInstructions";
import type { ChosenRule } from "../../instructions/projectRules";
import type { Conversation } from "../../chat/conversation";
import type { RulesView } from "../protocol";
import type { SessionRunner } from "../turns/sessionRunner";

// The Rules chip's content: every rules file that applies to the next message, sent or switched off for the
// conversation, with what each adds to the instruction text that is sent (so the chip and "What the model is
// told" give the same figures: both come from one assembly).

/** How a rules file is named when switched off: its folder and relative path, unique across folders. */
export function ruleFileId(rule: Pick<ChosenRule, "folder" | "path">): string {
  return `${rule.folder}/${rule.path}`;
}

/** The conversation's switched-off files; anything but a list of text (a damaged file) counts as none. */
export function rulesOffOf(conversation: Pick<Conversation, "rulesOff"> | null | undefined): string[] {
  const value: unknown = conversation?.rulesOff;
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}

/**
 * `applicable`: the rules files for the next message before any were switched off; `assembled`: what is sent,
 * with the switched-off ones left out. Null when there is nothing to show (no rules files, a trusted workspace).
 */
export function rulesView(applicable: readonly ChosenRule[], assembled: AssembledInstructions, off: ReadonlySet<string>, multiRoot: boolean, untrusted: boolean): RulesView | null {
  if (applicable.length === 0 && !untrusted) return null;
  const partsBySource = new Map(assembled.parts.map((part) => [part.source, part]));
  const files = applicable.map((rule) => {
    const id = ruleFileId(rule);
    const source = multiRoot ? id : rule.path;
    const part = off.has(id) ? undefined : partsBySource.get(source);
    return { id, source, tokens: part && !part.left ? part.tokens : 0, off: off.has(id), cut: part?.cut && !part.left ? part.cut : null, left: part?.left === true, ...(part?.redacted ? { redacted: true as const } : {}) };
  });
  return { files, instructionTokens: assembled.tokens, untrusted };
}

/** The rules files switched off for the conversation on screen: read for every request and the chip, changed from the chip. */
export class ConversationRules {
  constructor(
    private readonly runner: SessionRunner,
    private readonly changed: () => void,
  ) {}

  off(): string[] {
    return rulesOffOf(this.runner.conversation);
  }

  /** Switches a file off or back on (a new chat becomes its conversation now, so the choice goes with its first message). */
  async set(id: string, on: boolean): Promise<void> {
    if (this.runner.session === null) this.runner.replace(undefined);
    const session = this.runner.session;
    if (!session) return;
    const off = new Set(this.off());
    if (on) off.delete(id);
    else off.add(id);
    await session.changes.setRulesOff([...off].sort());
    this.changed();
  }
}
