import type { Localizer } from "./localizer";

/**
 * The message box's placeholder: it names `/` (commands and prompt files) beside `#` when that fits on the
 * box's one line, and only `#` in a narrow side bar, where the longer hint would wrap and be cut off. Measured
 * in the box's own font, so it holds for any language and font size; measured again when the box resizes.
 */
export function fitMessageHint(textarea: HTMLTextAreaElement, localizer: Localizer): void {
  const long = localizer.text("Ask anything, # to attach a file, / for commands");
  const short = localizer.text("Ask anything, # to attach a file");
  const measure = document.createElement("canvas").getContext("2d");
  const update = () => {
    const style = getComputedStyle(textarea);
    const room = textarea.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    let fits = false;
    if (measure !== null && room > 0) {
      measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      fits = measure.measureText(long).width <= room;
    }
    const hint = fits ? long : short;
    if (textarea.placeholder !== hint) textarea.placeholder = hint;
  };
  textarea.placeholder = short;
  new ResizeObserver(update).observe(textarea);
}
