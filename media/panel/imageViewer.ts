import { element } from "./dom";
import { iconButton } from "./icons";
import type { Localizer } from "./localizer";

// Images shown small (in the message box and in sent messages) open large in one modal dialog. Thumbnails
// are buttons holding their <img>; the panel listens for clicks on them in one place.

const OPENER_CLASS = "image-open";

/** A thumbnail that opens large on click (or Enter): `image` inside a button named after it. */
export function viewableImage(image: HTMLImageElement, label: string, localizer: Localizer): HTMLButtonElement {
  return element("button", { className: OPENER_CLASS, attributes: { type: "button", title: label, "aria-label": localizer.format("View {0} large", label) } }, [image]);
}

export class ImageViewer {
  readonly root = element("dialog", { className: "image-viewer" });
  private readonly closeButton: HTMLButtonElement;

  constructor(localizer: Localizer) {
    this.closeButton = iconButton("close", localizer.text("Close"), () => this.root.close(), "image-viewer-close");
    // A click anywhere closes it, as on the image previews people know; Escape closes a modal dialog by itself.
    this.root.addEventListener("click", () => this.root.close());
  }

  get isOpen(): boolean {
    return this.root.open;
  }

  /** Opens the image of the thumbnail a click landed on; false when it landed elsewhere (or on one not loaded yet). */
  openFrom(target: EventTarget | null): boolean {
    const opener = target instanceof Element ? target.closest(`.${OPENER_CLASS}`) : null;
    const thumbnail = opener?.querySelector("img");
    if (!thumbnail?.getAttribute("src")) return false;
    // The large image exists only while it is shown: the page holds no empty <img>.
    this.root.replaceChildren(this.closeButton, element("img", { attributes: { src: thumbnail.src, alt: thumbnail.alt } }));
    this.root.showModal();
    return true;
  }
}
