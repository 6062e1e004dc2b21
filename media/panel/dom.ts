// Small DOM builders. Every piece of text goes in through textContent, never through markup, so strings
// from the host, the model or the user cannot become elements.

export interface ElementOptions {
  className?: string;
  text?: string;
  attributes?: Record<string, string>;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  children: ReadonlyArray<Node | null> = [],
): HTMLElementTagNameMap[K] {
  const created = document.createElement(tag);
  if (options.className !== undefined) created.className = options.className;
  if (options.text !== undefined) created.textContent = options.text;
  for (const [name, value] of Object.entries(options.attributes ?? {})) created.setAttribute(name, value);
  for (const child of children) if (child !== null) created.appendChild(child);
  return created;
}

/** A type="button" button (a plain <button> in a form-less page is still "submit" by default). */
export function button(label: string, onClick: (event: MouseEvent) => void, options: ElementOptions = {}): HTMLButtonElement {
  const created = element("button", { ...options, text: options.text ?? label });
  created.type = "button";
  created.addEventListener("click", onClick);
  return created;
}

let nextIdentifier = 0;

/** Ids for aria-describedby and friends; unique within the page. */
export function uniqueId(prefix: string): string {
  nextIdentifier += 1;
  return `${prefix}-${nextIdentifier}`;
}

/** Text shown to screen readers only. */
export function visuallyHidden(text: string): HTMLSpanElement {
  return element("span", { className: "visually-hidden", text });
}

// One formatter for the page: toLocaleString builds a new one per call, which costs more than the number.
const countFormat = new Intl.NumberFormat("en-US");

export function formatCount(value: number | null): string {
  return value === null ? "–" : countFormat.format(value);
}

export function formatDuration(milliseconds: number | null): string {
  if (milliseconds === null) return "–";
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}

/** A listbox's options replace the old ones; the active one is announced (aria-activedescendant) and scrolled to. */
export function showListOptions(list: HTMLElement, input: HTMLElement, options: readonly HTMLElement[], activeIndex: number): void {
  list.replaceChildren(...options);
  const active = options[activeIndex];
  if (active === undefined) return;
  input.setAttribute("aria-activedescendant", active.id);
  active.scrollIntoView({ block: "nearest" });
}
