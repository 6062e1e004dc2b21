import { imageSize } from "image-size";

// What a vision model can tell of the images in a person's message without looking at the pixels: their
// kind and size, read from the data URLs of the `input_image` parts (image-size reads the headers), and
// what such a model bills for them.

export interface SeenImage {
  mediaType: string;
  width: number | null;
  height: number | null;
}

/** The data URL images of one message's content parts, in order. */
export function imagesOfContent(content: unknown): SeenImage[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => {
    const image = imageOfPart(part);
    return image ? [image] : [];
  });
}

/** The image of an `input_image` part with a data URL, or null for any other value. */
export function imageOfPart(part: unknown): SeenImage | null {
  const { type, image_url: url } = (typeof part === "object" && part !== null ? part : {}) as { type?: unknown; image_url?: unknown };
  const match = type === "input_image" && typeof url === "string" ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
  return match ? seen(match[1]!, match[2]!) : null;
}

function seen(mediaType: string, base64: string): SeenImage {
  try {
    const { width, height } = imageSize(Buffer.from(base64, "base64"));
    return { mediaType, width: width ?? null, height: height ?? null };
  } catch {
    // Bytes no image reader understands: a model would say it cannot read the image.
    return { mediaType, width: null, height: null };
  }
}

const IMAGE_BASE_TOKENS = 85;
const TOKENS_PER_TILE = 170;
/** An image the size cannot be read of counts as 1024 × 1024: four tiles, the figure the panel estimates with. */
const UNREADABLE_IMAGE_TOKENS = IMAGE_BASE_TOKENS + 4 * TOKENS_PER_TILE;

/**
 * The input tokens an image costs, as OpenAI counts them: at low detail 85; otherwise the image is scaled to fit
 * 2048 × 2048, then down to a shortest side of 768, and each 512-pixel tile costs 170 on top of the 85. A
 * 1024 × 1024 image is 765, the panel's estimate per image (src/chat/spendGuard.ts IMAGE_TOKEN_ESTIMATE).
 */
export function imageInputTokens(image: SeenImage, detail?: unknown): number {
  if (detail === "low") return IMAGE_BASE_TOKENS;
  if (image.width === null || image.height === null || image.width <= 0 || image.height <= 0) return UNREADABLE_IMAGE_TOKENS;
  const fit = Math.min(1, 2048 / Math.max(image.width, image.height));
  const shortest = Math.min(image.width, image.height) * fit;
  const scale = fit * Math.min(1, 768 / shortest);
  const tiles = Math.ceil((image.width * scale) / 512) * Math.ceil((image.height * scale) / 512);
  return IMAGE_BASE_TOKENS + tiles * TOKENS_PER_TILE;
}
