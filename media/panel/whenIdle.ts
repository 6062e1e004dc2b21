/**
 * Runs `work` when the page is idle, or after `timeoutMs` if it never is (a long stream keeps it busy);
 * `timeLeft` says how much of the idle moment is left, and `timedOut` that the page was not idle in time (both
 * where the browser has no idle callbacks).
 */
export function whenIdle(work: (timeLeft: () => number, timedOut: boolean) => void, timeoutMs: number): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback((deadline) => work(() => deadline.timeRemaining(), deadline.didTimeout), { timeout: timeoutMs });
  else setTimeout(() => work(() => 0, true), 50);
}
