import type { ToHost } from "../../src/panel/protocol";
import { IMAGE_MEDIA_TYPES } from "../../src/panel/protocol";
import { element } from "./dom";
import { viewableImage } from "./imageViewer";
import type { Localizer } from "./localizer";

// Thumbnails of the images sent messages carried. Their bytes stay with the host (stored files); the page
// asks for each by its stored name once, and keeps the data URL it gets back. Only a data URL of an image
// type is used, so the CSP can stay at `img-src data:` plus the extension's own files.

const IMAGE_DATA_URL = new RegExp(`^data:(?:${IMAGE_MEDIA_TYPES.map((type) => type.replace("/", "\\/")).join("|")});base64,[A-Za-z0-9+/]*=*$`);

export class SentImages {
  /** A data URL per stored name; null when the host has no such image. */
  private readonly sources = new Map<string, string | null>();
  private readonly requested = new Set<string>();

  constructor(
    private readonly post: (message: ToHost) => void,
    /** Where the thumbnails are, to fill in an image when its data arrives. */
    private readonly area: () => ParentNode,
  ) {}

  /** The thumbnails of one sent message, in the order they were sent. */
  render(names: readonly string[], localizer: Localizer): HTMLElement {
    return element(
      "div",
      { className: "sent-images" },
      names.map((name, index) => {
        const label = localizer.format("Image {0}", String(index + 1));
        const image = element("img", { attributes: { alt: label, "data-image-name": name } });
        this.fill(image, name);
        return viewableImage(image, label, localizer);
      }),
    );
  }

  /** The host's answer to `loadImage`. */
  received(name: string, dataUrl: string | null): void {
    this.sources.set(name, dataUrl !== null && IMAGE_DATA_URL.test(dataUrl) ? dataUrl : null);
    for (const image of this.area().querySelectorAll<HTMLImageElement>("img[data-image-name]")) {
      if (image.dataset.imageName === name) this.fill(image, name);
    }
  }

  private fill(image: HTMLImageElement, name: string): void {
    const source = this.sources.get(name);
    if (source === undefined) {
      if (!this.requested.has(name)) this.post({ type: "loadImage", name });
      this.requested.add(name);
    } else if (source === null) {
      image.classList.add("missing");
    } else {
      image.src = source;
    }
  }
}
