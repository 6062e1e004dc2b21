import { imageSize } from "image-size";

// What a vision model can tell of the images in a person's message without looking at the pixels: their
// kind and size, read from the data URLs of the `input_image` parts (image-size reads the headers).

export interface SeenImage {
  mediaType: string;
  width: number | null;
  height: number | null;
}

/** The data URL images of one message's content parts, in order. */
export function imagesOfContent(content: unknown): SeenImage[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: unknown) => {
    const { type, image_url: url } = (typeof part === "object" && part !== null ? part : {}) as { type?: unknown; image_url?: unknown };
    const match = type === "input_image" && typeof url === "string" ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
    return match ? [seen(match[1]!, match[2]!)] : [];
  });
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
