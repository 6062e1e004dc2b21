// Browser side of `npm run bench:render`: times streaming updates inside the page with performance.now().
import { StreamingMarkdownView } from "../../../media/render/incrementalMarkdown";
import { getMarkdownParser } from "../../../media/render/markdownParser";
import { renderMarkdownToSafeHtml } from "../../../media/render/markdownRenderer";
import type { NaiveSample, RenderBenchmarkHarness } from "./renderBenchmarkTypes";

declare global {
  interface Window {
    relayRenderBenchmark: RenderBenchmarkHarness;
  }
}

function freshColumn(): HTMLElement {
  const chat = document.getElementById("chat")!;
  chat.replaceChildren();
  const container = document.createElement("div");
  chat.appendChild(container);
  return container;
}

// Exposed by Chromium's --js-flags=--expose-gc (the benchmark launches it so); absent elsewhere.
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function measureTimerResolution(): number {
  let smallest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 50; attempt++) {
    const start = performance.now();
    let next = performance.now();
    while (next === start) next = performance.now();
    smallest = Math.min(smallest, next - start);
  }
  return smallest;
}

const benchmark: RenderBenchmarkHarness = {
  crossOriginIsolated: self.crossOriginIsolated,
  timerResolutionMilliseconds: measureTimerResolution(),
  userAgent: navigator.userAgent,

  runIncremental(deltas) {
    const container = freshColumn();
    collectGarbage();
    const view = new StreamingMarkdownView(container);
    const updateMilliseconds = new Array<number>(deltas.length);
    const layoutMilliseconds = new Array<number>(deltas.length);
    let layoutSink = 0;
    for (let index = 0; index < deltas.length; index++) {
      const start = performance.now();
      view.append(deltas[index]!);
      const appended = performance.now();
      layoutSink += container.offsetHeight;
      const end = performance.now();
      updateMilliseconds[index] = end - start;
      layoutMilliseconds[index] = end - appended;
    }
    view.finish();
    const finalHtmlMatchesOneShot = layoutSink > 0 && container.innerHTML === renderMarkdownToSafeHtml(view.text);
    container.remove();
    return { updateMilliseconds, layoutMilliseconds, finalHtmlMatchesOneShot };
  },

  runNaiveSampled(deltas, stride, slice, sliceCount) {
    const container = freshColumn();
    const markdown = getMarkdownParser();
    const prefixLengths: number[] = [];
    let length = 0;
    for (const delta of deltas) prefixLengths.push((length += delta.length));
    const text = deltas.join("");
    const samples: NaiveSample[] = [];
    let layoutSink = 0;
    for (let index = stride - 1 + slice * stride; index < deltas.length; index += stride * sliceCount) {
      container.innerHTML = markdown.render(text.slice(0, prefixLengths[index - 1] ?? 0));
      layoutSink += container.offsetHeight;
      const prefix = text.slice(0, prefixLengths[index]);
      const start = performance.now();
      container.innerHTML = markdown.render(prefix);
      layoutSink += container.offsetHeight;
      samples.push({ deltaIndex: index, milliseconds: performance.now() - start });
    }
    container.remove();
    return layoutSink > 0 ? samples : [];
  },
};

window.relayRenderBenchmark = benchmark;
document.documentElement.dataset["harnessReady"] = "true";
