import * as vscode from "vscode";
import { redactSecrets } from "../relay/redact";

/** The "Relay Chat" output channel. Every line passes through redaction with the keys currently known. */
export class OutputLog implements vscode.Disposable {
  private readonly channel = vscode.window.createOutputChannel("Relay Chat", { log: true });
  private secrets: string[] = [];

  setSecrets(secrets: Array<string | null | undefined>): void {
    this.secrets = secrets.filter((secret): secret is string => Boolean(secret));
  }

  info(message: string): void {
    this.channel.info(this.redact(message));
  }

  error(message: string): void {
    this.channel.error(this.redact(message));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }

  private redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }
}
