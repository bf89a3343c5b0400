import sharp from 'sharp';
import type { ImageFormat } from './image.entity';
import { IMAGE_FORMATS } from './image.entity';

export const CONTENT_TYPE_OF: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** Why an upload is refused; the service turns each into a 422 on `image`. */
export type ImageRefusal = 'not-an-image' | 'unsupported-format' | 'too-many-pixels' | 'corrupt';

export class ImageRefusedError extends Error {
  constructor(readonly refusal: ImageRefusal) {
    super(refusal);
  }
}

export interface NormalizedImage {
  data: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
}

const isSupported = (format: string | undefined): format is ImageFormat =>
  (IMAGE_FORMATS as readonly string[]).includes(format ?? '');

/**
 * Judges an upload by its content and makes the original that is stored and served:
 * 1. the header alone (no decoding) says the format (JPEG, PNG or WebP only) and the dimensions,
 *    whose pixel count must stay under `maxPixels` (a decompression bomb stops here);
 * 2. the whole image is decoded (a truncated or corrupt file fails here), turned upright from its
 *    EXIF orientation, and written again in its own format without any metadata (GPS included).
 */
export async function normalizeUpload(input: Buffer, maxPixels: number): Promise<NormalizedImage> {
  let header: sharp.Metadata;
  try {
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefusedError('not-an-image');
  }
  if (!isSupported(header.format)) throw new ImageRefusedError('unsupported-format');
  if (!header.width || !header.height || header.width * header.height > maxPixels) {
    throw new ImageRefusedError('too-many-pixels');
  }
  const format = header.format;
  try {
    const { data, info } = await sharp(input, { limitInputPixels: maxPixels, failOn: 'truncated' })
      .rotate()
      .toFormat(format, format === 'png' ? {} : { quality: 90 })
      .toBuffer({ resolveWithObject: true });
    return { data, format, width: info.width, height: info.height };
  } catch {
    throw new ImageRefusedError('corrupt');
  }
}

/** A variant: fit inside `width` × any height, never enlarged, same format, no metadata. */
export async function resizeVariant(original: Buffer, format: ImageFormat, width: number): Promise<Buffer> {
  return sharp(original, { limitInputPixels: false })
    .resize({ width, fit: 'inside', withoutEnlargement: true })
    .toFormat(format, format === 'png' ? {} : { quality: 85 })
    .toBuffer();
}

/**
 * At most `limit` tasks at once; the others wait their turn (resizes run on sharp's thread pool,
 * off the event loop; this bounds how many images are decoded in memory at once).
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running += 1;
    try {
      return await task();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}

/** One run per key at a time: concurrent callers of a key share the run in progress. */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  run(key: string, task: () => Promise<T>): Promise<T> {
    const existing = this.inFlight.get(key);
    if (existing) return existing;
    const started = task().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }
}
