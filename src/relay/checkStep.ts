// One step of a relay's check-up and how it went. Its own module because the checks of each part
// (connectionCheck.ts, chatCompletions/protocolCheck.ts, instructionsCheck.ts) all report steps.

export type CheckStatus = "ok" | "warning" | "failed" | "skipped";

export interface CheckStep {
  name: string;
  status: CheckStatus;
  detail: string;
}
