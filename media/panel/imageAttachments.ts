import type { ImageLimitsView, ImageMediaType, ImageUpload } from "../../src/panel/protocol";
import { DEFAULT_IMAGE_LIMITS, IMAGE_MEDIA_TYPES, MAX_IMAGES_PER_MESSAGE, MEGABYTE } from "../../src/panel/protocol";
import { element } from "./dom";
import { iconButton } from "./icons";
import { viewableImage } from "./imageViewer";
import type { Localizer } from "./localizer";

// Images pasted, dropped or picked for the next message: each is read, downscaled in a canvas when it is
// larger than the settings allow, and shown as a removable thumbnail. An image still over the byte limit
// after downscaling is refused whole with a message; nothing is ever sent in part.

interface PendingImage extends ImageUpload {
  id: number;
  name: string;
}

export class ImageAttachments {
  readonly root = element("div", { className: "image-attachments" });
  private readonly strip = element("div", { className: "image-thumbnails" });
  private readonly problem = element("div", { className: "image-problem", attributes: { role: "alert" } });
  private images: PendingImage[] = [];
  private counter = 0;
  limits: ImageLimitsView = DEFAULT_IMAGE_LIMITS;

  constructor(
    private readonly localizer: Localizer,
    /** The list changed (the composer updates Send and the meter). */
    private readonly onChange: () => void,
  ) {
    this.root.append(this.strip, this.problem);
    this.strip.hidden = true;
  }

  get count(): number {
    return this.images.length;
  }

  /** The images for the message being sent, emptied. */
  take(): ImageUpload[] {
    const taken = this.images.map(({ mediaType, data }) => ({ mediaType, data }));
    this.images = [];
    this.render();
    return taken;
  }

  /** Images pasted into `pasteTarget`, dropped on `dropArea` or chosen with `picker` are attached; other files are left alone. */
  acceptFrom(pasteTarget: HTMLElement, dropArea: HTMLElement, picker: HTMLInputElement): void {
    const addFrom = (event: Event, files: FileList | null | undefined) => {
      const images = imageFilesOf(files);
      if (images.length === 0) return;
      event.preventDefault();
      void this.add(images);
    };
    pasteTarget.addEventListener("paste", (event) => addFrom(event, event.clipboardData?.files));
    dropArea.addEventListener("dragover", (event) => {
      if (Array.from(event.dataTransfer?.items ?? []).some((item) => item.kind === "file")) event.preventDefault();
    });
    dropArea.addEventListener("drop", (event) => addFrom(event, event.dataTransfer?.files));
    picker.addEventListener("change", () => {
      void this.add(imageFilesOf(picker.files));
      picker.value = "";
    });
  }

  /** Adds the image files among `files` (others are left to whoever else handles the event). */
  async add(files: readonly File[]): Promise<void> {
    this.problem.textContent = "";
    for (const file of files) {
      if (this.images.length >= MAX_IMAGES_PER_MESSAGE) {
        this.problem.textContent = this.localizer.format("At most {0} images go with one message.", String(MAX_IMAGES_PER_MESSAGE));
        break;
      }
      try {
        const image = await prepareImage(file, this.limits);
        if (image === null) {
          this.problem.textContent = this.localizer.format("{0} is larger than {1} MB even after downscaling, so it was not attached.", file.name || this.localizer.text("The image"), String(this.limits.maxBytes / MEGABYTE));
          continue;
        }
        this.counter += 1;
        this.images.push({ ...image, id: this.counter, name: file.name || this.localizer.format("Image {0}", String(this.counter)) });
      } catch {
        this.problem.textContent = this.localizer.format("{0} could not be read as an image.", file.name || this.localizer.text("The image"));
      }
    }
    this.render();
  }

  private remove(id: number): void {
    this.images = this.images.filter((image) => image.id !== id);
    this.problem.textContent = "";
    this.render();
  }

  private render(): void {
    this.strip.replaceChildren(
      ...this.images.map((image) =>
        element("span", { className: "image-thumbnail", attributes: { title: image.name } }, [
          viewableImage(element("img", { attributes: { src: dataUrlOf(image), alt: image.name } }), image.name, this.localizer),
          iconButton("close", this.localizer.format("Remove image {0}", image.name), () => this.remove(image.id), "chip-remove"),
        ]),
      ),
    );
    this.strip.hidden = this.images.length === 0;
    this.onChange();
  }
}

/** The image files of a paste, a drop or the file picker. */
export function imageFilesOf(files: FileList | null | undefined): File[] {
  return Array.from(files ?? []).filter((file) => isImageType(file.type));
}

export function isImageType(type: string): type is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(type);
}

export function dataUrlOf(image: ImageUpload): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

/** The file as it will be sent: unchanged when within the limits, downscaled otherwise; null when still too large. */
async function prepareImage(file: File, limits: ImageLimitsView): Promise<ImageUpload | null> {
  if (!isImageType(file.type)) throw new Error("not an image type");
  const bitmap = await createImageBitmap(file);
  const longest = Math.max(bitmap.width, bitmap.height);
  if (longest <= limits.maxLongestSide && file.size <= limits.maxBytes) {
    bitmap.close();
    return { mediaType: file.type, data: await base64Of(file) };
  }
  const scale = Math.min(1, limits.maxLongestSide / longest);
  const canvas = document.createElement("canvas");
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext("2d")?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  // Canvases cannot write GIF; a downscaled GIF becomes a PNG (its first frame).
  const mediaType: ImageMediaType = file.type === "image/gif" ? "image/png" : file.type;
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, mediaType, 0.9));
  if (blob === null || blob.size > limits.maxBytes) return null;
  return { mediaType, data: await base64Of(blob) };
}

async function base64Of(blob: Blob): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(blob);
  });
  return url.slice(url.indexOf(",") + 1);
}
