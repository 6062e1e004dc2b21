import * as vscode from "vscode";
import { protocolChoiceOf, sameChoice } from "../../chat/listOnlyProtocolChoices";
import type { ProtocolChoice } from "../../chat/listOnlyProtocolChoices";
import { saveModelSettings } from "../models/modelSettingsWriter";
import type { OutputLog } from "../outputLog";

// The check-up found that a model needs Chat Completions (its Responses request was refused in the way that means
// "not this interface", and the same request over Chat Completions worked). The finding waits for the person:
// the notification, the check-up's report and the panel each offer the confirmation, and one click in any of them
// saves relayChat.modelSettings "protocol": "chat" for exactly that relay and model. Nothing is saved unasked.

/** Runs the confirmation; its argument (from a command link or a button) names the relay and model. */
export const USE_CHAT_COMPLETIONS_COMMAND = "relayChat.useChatCompletions";

export class ChatCompletionsFinding implements vscode.Disposable {
  private waiting: ProtocolChoice | null = null;
  private saved: ProtocolChoice | null = null;
  private readonly changed = new vscode.EventEmitter<void>();
  /** The finding came, was confirmed, or was replaced by a later check-up. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly log: OutputLog) {}

  /** The finding waiting for the person's confirmation; null when there is none. */
  get pending(): ProtocolChoice | null {
    return this.waiting;
  }

  /** True once the person confirmed `choice` (the report then says it is done). */
  confirmed(choice: ProtocolChoice): boolean {
    return this.saved !== null && sameChoice(this.saved, choice);
  }

  /** The check-up of `relay` with `model` ended; `needsChat`: it found the model needs Chat Completions. */
  checked(relay: string, model: string, needsChat: boolean): void {
    const choice = { relay, model };
    if (!needsChat) {
      if (this.waiting && sameChoice(this.waiting, choice)) this.replace(null);
      return;
    }
    this.replace(choice);
    void this.notify(choice);
  }

  /**
   * Saves Chat Completions for the finding `argument` names (a command link's or a button's), or the waiting one
   * when it names none. Only a finding the check-up made is saved: a link cannot change another model's wire.
   */
  async confirm(argument?: unknown): Promise<void> {
    const asked = protocolChoiceOf(argument) ?? this.waiting;
    if (asked && this.confirmed(asked)) return;
    if (!asked || !this.waiting || !sameChoice(asked, this.waiting)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('There is no check-up finding to confirm for this model. Run "Relay Chat: Check Relay Connection" again, or set the protocol in Model settings….'));
      return;
    }
    await saveModelSettings(asked.relay, asked.model, { protocol: "chat" });
    this.log.info(`relayChat.modelSettings: ${asked.model} on ${asked.relay} now uses Chat Completions (confirmed after the check-up)`);
    this.saved = asked;
    this.replace(null);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private replace(choice: ProtocolChoice | null): void {
    this.waiting = choice;
    this.changed.fire();
  }

  private async notify(choice: ProtocolChoice): Promise<void> {
    const use = vscode.l10n.t("Use Chat Completions for this model");
    const answer = await vscode.window.showInformationMessage(vscode.l10n.t('"{0}" on {1} answers over Chat Completions, not the Responses interface. Use Chat Completions for it?', choice.model, choice.relay), use);
    // Confirmed here, or already in the report or the panel meanwhile.
    if (answer === use) await this.confirm(choice);
  }
}
