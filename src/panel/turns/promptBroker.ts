import type { SendEstimate } from "../../chat/spendGuard";
import type { ApprovalAnswer } from "../../tools/approvalPolicy";
import type { ApprovalRequest } from "../../tools/approvalGate";
import type { ApprovalView } from "../protocol";

// The questions a running turn waits on: tool approvals and the confirmation of an expensive send. Each
// is a promise the turn awaits; the user answers through the panel. `cancelAll` answers every open
// question with "no" (deny, do not send), so nothing runs or is sent after Stop, a new chat or a switch.

interface PendingApproval {
  view: ApprovalView;
  resolve: (answer: ApprovalAnswer) => void;
}

interface PendingSpend {
  estimate: SendEstimate;
  resolve: (confirmed: boolean) => void;
}

export class PromptBroker {
  private readonly pendingApprovals = new Map<string, PendingApproval>();
  private pendingSpend: PendingSpend | null = null;

  /** `onChange` runs whenever the set of open questions changes (to show or drop them). */
  constructor(private readonly onChange: (what: "approvals" | "spend") => void) {}

  /** `followUp`: the estimate of the request that will carry the result back, for the card to show. */
  askApproval(request: ApprovalRequest, followUp: SendEstimate | null = null): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      // A repeated call id replaces the earlier question, which is answered "deny" so its turn goes on.
      this.pendingApprovals.get(request.callId)?.resolve("deny");
      this.pendingApprovals.set(request.callId, { view: { ...request, followUpInputTokens: followUp?.inputTokens ?? null }, resolve });
      this.onChange("approvals");
    });
  }

  /** False when nothing waits for `callId` (already answered, or cancelled). */
  answerApproval(callId: string, answer: ApprovalAnswer): boolean {
    const pending = this.pendingApprovals.get(callId);
    if (!pending) return false;
    this.pendingApprovals.delete(callId);
    pending.resolve(answer);
    this.onChange("approvals");
    return true;
  }

  confirmSpend(estimate: SendEstimate): Promise<boolean> {
    return new Promise((resolve) => {
      this.pendingSpend?.resolve(false);
      this.pendingSpend = { estimate, resolve };
      this.onChange("spend");
    });
  }

  answerSpend(confirmed: boolean): boolean {
    const pending = this.pendingSpend;
    if (!pending) return false;
    this.pendingSpend = null;
    pending.resolve(confirmed);
    this.onChange("spend");
    return true;
  }

  /** Every open question is answered "no". */
  cancelAll(): void {
    const approvals = [...this.pendingApprovals.values()];
    this.pendingApprovals.clear();
    for (const pending of approvals) pending.resolve("deny");
    if (approvals.length > 0) this.onChange("approvals");
    this.answerSpend(false);
  }

  get approvals(): ApprovalView[] {
    return [...this.pendingApprovals.values()].map((pending) => pending.view);
  }

  get spendEstimate(): SendEstimate | null {
    return this.pendingSpend?.estimate ?? null;
  }
}
