import { createHash } from "node:crypto";
import * as l10n from "@vscode/l10n";
import type { DocumentStorage } from "./documentStorage";
import type { InputItem, JsonObject, JsonValue } from "../relay/types";

// Images sent with messages, stored once beside the conversations as content-addressed files
// (`conversations/images/<sha256>.<ext>`, the bytes base64-encoded because history storage is text).
// The conversation keeps only a reference (`relay-chat-image:<name>`) inside the user message's
// `input_image` part; the data URL is put in only when the request is built, so history files stay small
// and a resend carries the very same bytes.

export const IMAGE_FOLDER = "conversations/images";
export const IMAGE_REFERENCE_SCHEME = "relay-chat-image:";

const EXTENSIONS: Readonly<Record<string, string>> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };
const STORED_NAME = /^[0-9a-f]{64}\.(png|jpg|webp|gif)$/;

export interface ImageData {
  mediaType: string;
  /** The image's bytes, base64-encoded. */
  data: string;
}

export class ImageStore {
  constructor(private readonly storage: DocumentStorage) {}

  /** Stores the image (once: the same bytes share one file) and returns its stored name. */
  async put(image: ImageData): Promise<string> {
    const extension = EXTENSIONS[image.mediaType];
    if (extension === undefined) throw new Error(l10n.t("Images must be PNG, JPEG, WebP or GIF."));
    const bytes = Buffer.from(image.data, "base64");
    const name = `${createHash("sha256").update(bytes).digest("hex")}.${extension}`;
    if ((await this.storage.read(`${IMAGE_FOLDER}/${name}`)) === null) await this.storage.writeAtomically(`${IMAGE_FOLDER}/${name}`, bytes.toString("base64"));
    return name;
  }

  /** The stored image, or null when its file is missing. */
  async get(name: string): Promise<ImageData | null> {
    if (!STORED_NAME.test(name)) return null;
    const data = await this.storage.read(`${IMAGE_FOLDER}/${name}`);
    if (data === null) return null;
    const extension = name.slice(name.lastIndexOf(".") + 1);
    const mediaType = Object.keys(EXTENSIONS).find((type) => EXTENSIONS[type] === extension) ?? "application/octet-stream";
    return { mediaType, data };
  }

  /** The items with every image reference replaced by the image's data URL, for the request body only. */
  async resolve(items: readonly InputItem[]): Promise<InputItem[]> {
    return Promise.all(items.map((item) => (hasImageReference(item) ? this.resolveMessage(item) : item)));
  }

  private async resolveMessage(item: InputItem): Promise<InputItem> {
    const content = await Promise.all(
      (item.content as JsonValue[]).map(async (part) => {
        const reference = imageReferenceOf(part);
        if (reference === null) return part;
        const image = await this.get(reference);
        if (image === null) throw new Error(l10n.t("An image of this conversation is missing from its folder ({0}).", reference));
        return { ...(part as JsonObject), image_url: `data:${image.mediaType};base64,${image.data}` };
      }),
    );
    return { ...item, content } as InputItem;
  }
}

/** The user message of a turn: its text and, when it has images, an `input_image` part referring to each stored image. */
export function userMessageWith(text: string, imageNames: readonly string[]): InputItem {
  if (imageNames.length === 0) return { type: "message", role: "user", content: text };
  const parts: JsonObject[] = [];
  if (text !== "") parts.push({ type: "input_text", text });
  for (const name of imageNames) parts.push({ type: "input_image", image_url: `${IMAGE_REFERENCE_SCHEME}${name}` });
  return { type: "message", role: "user", content: parts };
}

/** The stored names an item's image parts refer to. */
export function imageReferencesOf(item: InputItem): string[] {
  if (!Array.isArray(item.content)) return [];
  return item.content.map(imageReferenceOf).filter((name): name is string => name !== null);
}

function hasImageReference(item: InputItem): boolean {
  return imageReferencesOf(item).length > 0;
}

function imageReferenceOf(part: JsonValue): string | null {
  if (typeof part !== "object" || part === null || Array.isArray(part) || part.type !== "input_image") return null;
  const url = part.image_url;
  return typeof url === "string" && url.startsWith(IMAGE_REFERENCE_SCHEME) ? url.slice(IMAGE_REFERENCE_SCHEME.length) : null;
}
