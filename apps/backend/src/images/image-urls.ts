import type { ImageFormat } from './image.entity';
import { isValidSignature, signPath, type SigningPair } from './imgproxy-signature';

/** The variants of every image (docs/decisions.md D-41): widths in pixels, fit inside, never enlarged. */
export const VARIANT_WIDTHS = { thumb: 200, medium: 600, large: 1200, full: 1920 } as const;
export type VariantName = keyof typeof VARIANT_WIDTHS;
export type ImageVariants = Record<VariantName, string>;

const ALLOWED_WIDTHS = new Set<number>(Object.values(VARIANT_WIDTHS));

/** The file extension of each stored format, in URLs and storage keys. */
export const EXTENSION_OF: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

export interface ImageDimensions {
  id: string;
  format: ImageFormat;
  width: number;
}

/** The path after the signature: `/plain/<id>.<ext>`, or `/rs:fit:<width>:0/plain/<id>.<ext>`. */
export function imagePath(image: Pick<ImageDimensions, 'id' | 'format'>, width?: number): string {
  const source = `/plain/${image.id}.${EXTENSION_OF[image.format]}`;
  return width === undefined ? source : `/rs:fit:${width}:0${source}`;
}

/** A signed URL, in imgproxy's format, served by the backend under `/img`. */
export const signedUrl = (pair: SigningPair, path: string): string => `/img/${signPath(pair, path)}${path}`;

/**
 * Every variant of an image; a variant at least as wide as the original is the original's URL
 * (nothing is ever enlarged). The one builder of image URLs: clients never build them.
 */
export function variantsOf(pair: SigningPair, image: ImageDimensions): ImageVariants {
  const original = signedUrl(pair, imagePath(image));
  const entries = Object.entries(VARIANT_WIDTHS).map(([name, width]) => [
    name,
    width >= image.width ? original : signedUrl(pair, imagePath(image, width)),
  ]);
  return Object.fromEntries(entries) as ImageVariants;
}

export interface RequestedImage {
  id: string;
  extension: string;
  /** The variant's width; undefined for the original. */
  width?: number;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SIGNED_PATH = new RegExp(
  `^/([A-Za-z0-9_-]{1,100})((?:/rs:fit:(\\d{1,5}):0)?/plain/(${UUID})\\.([a-z]{3,4}))$`,
);

export type ParsedImageRequest =
  { outcome: 'image'; image: RequestedImage } | { outcome: 'bad-signature' } | { outcome: 'not-found' };

/**
 * Reads `/<signature>/<options>/plain/<id>.<ext>` (the path under `/img`). The signature is
 * checked first, over everything after it; then only the options the backend itself issues are
 * accepted (the original, or `rs:fit:<variant width>:0`); anything else is not found.
 */
export function parseImageRequest(pair: SigningPair, pathUnderImg: string): ParsedImageRequest {
  const slash = pathUnderImg.indexOf('/', 1);
  if (slash < 0) return { outcome: 'not-found' };
  const signature = pathUnderImg.slice(1, slash);
  const signed = pathUnderImg.slice(slash);
  if (!isValidSignature(pair, signed, signature)) return { outcome: 'bad-signature' };
  const match = SIGNED_PATH.exec(pathUnderImg);
  if (!match) return { outcome: 'not-found' };
  const width = match[3] === undefined ? undefined : Number(match[3]);
  if (width !== undefined && !ALLOWED_WIDTHS.has(width)) return { outcome: 'not-found' };
  return { outcome: 'image', image: { id: match[4], extension: match[5], width } };
}
