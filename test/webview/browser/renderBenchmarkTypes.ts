// Shapes exchanged between the benchmark page and Node; free of DOM types so both sides can import them.

export interface IncrementalRun {
  /** Milliseconds of append() plus a forced layout, per delta. */
  readonly updateMilliseconds: number[];
  /** The forced-layout part of each update. */
  readonly layoutMilliseconds: number[];
  readonly finalHtmlMatchesOneShot: boolean;
}

export interface NaiveSample {
  readonly deltaIndex: number;
  readonly milliseconds: number;
}

export interface RenderBenchmarkHarness {
  readonly crossOriginIsolated: boolean;
  readonly timerResolutionMilliseconds: number;
  readonly userAgent: string;
  runIncremental(deltas: readonly string[]): IncrementalRun;
  /**
   * Times `innerHTML = markdownIt.render(all text)` at every `stride`-th delta (the previous state set untimed);
   * only the samples whose ordinal is `slice` modulo `sliceCount`, so the naive peer can be measured in
   * slices interleaved with the incremental runs (both then see the same load on a shared machine).
   */
  runNaiveSampled(deltas: readonly string[], stride: number, slice: number, sliceCount: number): NaiveSample[];
}
