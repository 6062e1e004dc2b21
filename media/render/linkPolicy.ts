// The single rule for which link targets the model may produce. The webview never navigates by itself:
// targets travel in `data-href` and the host opens them after its own check.
const allowedLinkTargetPattern = /^(?:https?:\/\/|mailto:)/i;
// Control characters and whitespace have no place in a normalized URL; browsers strip some of them
// (`java\tscript:`), so their presence alone is reason to refuse.
const disallowedCharacterPattern = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u180e\u2000-\u2029\u205f\u3000\ufeff]/;

export function isAllowedLinkTarget(url: string): boolean {
  return allowedLinkTargetPattern.test(url) && !disallowedCharacterPattern.test(url);
}
