// Browser side of the webview tests: exposes the renderer to the Node side through `window`.
import { StreamingMarkdownView } from "../../../media/render/incrementalMarkdown";
import { renderMarkdownToSafeHtml } from "../../../media/render/markdownRenderer";

export interface PrefixMismatch {
  readonly prefixLength: number;
  readonly expected: string;
  readonly actual: string;
}

export interface StreamingComparison {
  readonly comparisons: number;
  readonly mismatches: PrefixMismatch[];
}

export type FeedMethod = "append" | "setText";
export type RenderPath = "one-shot" | "streamed";

export interface RenderHarness {
  compareStreamingWithOneShot(text: string, deltaLengths: readonly number[], checkpoints: readonly number[] | "every", feedMethod: FeedMethod): StreamingComparison;
  renderUntrustedAnswers(answers: readonly string[], deltaLengths: readonly number[], path: RenderPath): string[];
  renderOneShot(text: string): string;
  injectUnsanitizedHtml(html: string): void;
  settle(): Promise<void>;
  executionCount(): number;
  policyViolations(): string[];
  reset(): void;
}

declare global {
  interface Window {
    relayRenderHarness: RenderHarness;
    __xss: number[];
  }
}

const violations: string[] = [];
document.addEventListener("securitypolicyviolation", (event) => {
  violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
window.__xss = [];

function chatColumn(): HTMLElement {
  return document.getElementById("chat")!;
}

function newContainer(): HTMLElement {
  const container = document.createElement("div");
  chatColumn().appendChild(container);
  return container;
}

// Trims both strings to the neighbourhood of their first difference so a failure message stays readable.
function describeDifference(prefixLength: number, expected: string, actual: string): PrefixMismatch {
  let first = 0;
  while (first < expected.length && expected[first] === actual[first]) first++;
  const from = Math.max(0, first - 120);
  return { prefixLength, expected: expected.slice(from, first + 200), actual: actual.slice(from, first + 200) };
}

const forbiddenElements = new Set([
  "script", "iframe", "frame", "frameset", "object", "embed", "svg", "math", "style", "link", "meta", "base",
  "form", "input", "textarea", "select", "img", "image", "video", "audio", "source", "template", "noscript", "xmp", "applet",
]);
const urlOrCodeAttributes = new Set(["href", "src", "srcdoc", "srcset", "style", "action", "formaction", "xlink:href", "background", "poster", "lowsrc", "dynsrc", "data"]);
const scriptUrlPattern = /^(?:javascript|vbscript|data|livescript):/i;
const allowedDataHrefPattern = /^(?:https?:\/\/|mailto:)/i;

function findUnsafeMarkup(root: Element, label: string): string[] {
  const findings: string[] = [];
  for (const element of Array.from(root.querySelectorAll("*"))) {
    const name = element.localName;
    if (forbiddenElements.has(name)) findings.push(`${label}: <${name}> element`);
    if (element.namespaceURI !== "http://www.w3.org/1999/xhtml") findings.push(`${label}: foreign element ${name}`);
    for (const attribute of Array.from(element.attributes)) {
      const attributeName = attribute.name.toLowerCase();
      const compactValue = attribute.value.replace(/[\u0000-\u0020\u007f-\u00a0]/g, "");
      if (attributeName.startsWith("on")) findings.push(`${label}: event handler ${attributeName} on <${name}>`);
      if (urlOrCodeAttributes.has(attributeName)) findings.push(`${label}: attribute ${attributeName} on <${name}>`);
      if (scriptUrlPattern.test(compactValue)) findings.push(`${label}: script URL in ${attributeName}`);
      if (attributeName === "data-href" && !allowedDataHrefPattern.test(attribute.value)) {
        findings.push(`${label}: data-href ${attribute.value}`);
      }
    }
  }
  return findings;
}

function clickEverything(root: Element): void {
  for (const element of Array.from(root.querySelectorAll<HTMLElement>("a, button"))) element.click();
}

const harness: RenderHarness = {
  compareStreamingWithOneShot(text, deltaLengths, checkpoints, feedMethod) {
    const container = newContainer();
    const view = new StreamingMarkdownView(container);
    const sortedCheckpoints = checkpoints === "every" ? [] : [...checkpoints].sort((a, b) => a - b);
    const mismatches: PrefixMismatch[] = [];
    let comparisons = 0;
    const compare = (prefixLength: number): void => {
      comparisons++;
      const expected = renderMarkdownToSafeHtml(text.slice(0, prefixLength));
      if (container.innerHTML !== expected && mismatches.length < 5) {
        mismatches.push(describeDifference(prefixLength, expected, container.innerHTML));
      }
    };
    let fed = 0;
    let nextCheckpoint = 0;
    for (let deltaIndex = 0; fed < text.length; deltaIndex++) {
      const length = Math.max(1, deltaLengths[deltaIndex % deltaLengths.length] ?? 1);
      const nextFed = Math.min(text.length, fed + length);
      if (feedMethod === "append") view.append(text.slice(fed, nextFed));
      else view.setText(text.slice(0, nextFed));
      fed = nextFed;
      if (checkpoints === "every") {
        compare(fed);
      } else if (nextCheckpoint < sortedCheckpoints.length && sortedCheckpoints[nextCheckpoint]! <= fed) {
        while (nextCheckpoint < sortedCheckpoints.length && sortedCheckpoints[nextCheckpoint]! <= fed) nextCheckpoint++;
        compare(fed);
      }
    }
    view.finish();
    compare(text.length);
    container.remove();
    return { comparisons, mismatches };
  },

  renderUntrustedAnswers(answers, deltaLengths, path) {
    const findings: string[] = [];
    answers.forEach((answer, answerIndex) => {
      const container = newContainer();
      const label = `${path} #${answerIndex}`;
      if (path === "one-shot") {
        container.innerHTML = renderMarkdownToSafeHtml(answer);
      } else {
        const view = new StreamingMarkdownView(container);
        let fed = 0;
        for (let deltaIndex = 0; fed < answer.length; deltaIndex++) {
          const length = Math.max(1, deltaLengths[(answerIndex + deltaIndex) % deltaLengths.length] ?? 1);
          view.append(answer.slice(fed, fed + length));
          fed += length;
          findings.push(...findUnsafeMarkup(container, `${label} at ${Math.min(fed, answer.length)}`));
        }
        view.finish();
      }
      findings.push(...findUnsafeMarkup(container, label));
      clickEverything(container);
    });
    return findings;
  },

  renderOneShot: (text) => renderMarkdownToSafeHtml(text),

  injectUnsanitizedHtml(html) {
    newContainer().innerHTML = html;
  },

  async settle() {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  },

  executionCount: () => window.__xss.length,
  policyViolations: () => [...violations],
  reset() {
    chatColumn().replaceChildren();
    window.__xss = [];
    violations.length = 0;
  },
};

window.relayRenderHarness = harness;
document.documentElement.dataset["harnessReady"] = "true";
