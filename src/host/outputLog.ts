import * as vscode from "vscode";
import { redactSecrets } from "../relay/redact";
import type { RequestResult } from "../relay/types";

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

  request(model: string, purpose: string, result: RequestResult): void {
    const usage = result.snapshot.usage;
    const parts = [
      `request ${result.requestId ?? "(no request id)"}`,
      `model ${model}`,
      purpose,
      `outcome ${result.outcome.kind}`,
      `http ${result.httpStatus ?? "-"}`,
      `first byte ${result.timing.firstByteMs === null ? "-" : Math.round(result.timing.firstByteMs)} ms`,
      `total ${Math.round(result.timing.totalMs)} ms`,
      usage ? `tokens in ${usage.input_tokens ?? "?"} out ${usage.output_tokens ?? "?"}` : "no usage",
    ];
    const line = parts.join(" · ");
    if (result.outcome.kind === "completed") this.info(line);
    else this.error(`${line} · ${result.explanation ?? ""}`);
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
