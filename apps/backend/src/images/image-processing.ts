import sharp from 'sharp';
import type { ImageFormat } from './image.entity';
import { IMAGE_FORMATS } from './image.entity';

export const CONTENT_TYPE_OF: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** Why an upload is refused; the service turns each into a 422 on `image`. */
export type ImageRefusal =
  | 'not-an-image'
  | 'unsupported-format'
  | 'too-many-pixels'
  | 'too-wide'
  | 'too-tall'
  | 'too-elongated'
  | 'corrupt';

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

/** What an upload's header must stay within (ImageSettings). */
export interface UploadLimits {
  maxPixels: number;
  maxWidth: number;
  maxHeight: number;
  /** Long side over short side. */
  maxAspectRatio: number;
}

const isSupported = (format: string | undefined): format is ImageFormat =>
  (IMAGE_FORMATS as readonly string[]).includes(format ?? '');

/**
 * Judges an upload by its header alone (sharp's metadata, no pixel decoded): the format (JPEG, PNG
 * or WebP only), then the pixel count, width, height and aspect ratio within `limits`. A
 * decompression bomb, or an image under the pixel limit whose rows alone would take half a minute
 * to decode (1 × 40,000,000), stops here, in a millisecond.
 */
export async function judgeUploadHeader(input: Buffer, limits: UploadLimits): Promise<ImageFormat> {
  let header: sharp.Metadata;
  try {
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRefusedError('not-an-image');
  }
  if (!isSupported(header.format)) throw new ImageRefusedError('unsupported-format');
  const { width, height } = header;
  if (!width || !height || width * height > limits.maxPixels) throw new ImageRefusedError('too-many-pixels');
  if (width > limits.maxWidth) throw new ImageRefusedError('too-wide');
  if (height > limits.maxHeight) throw new ImageRefusedError('too-tall');
  if (Math.max(width, height) / Math.min(width, height) > limits.maxAspectRatio) {
    throw new ImageRefusedError('too-elongated');
  }
  return header.format;
}

/**
 * Makes the original that is stored and served from an upload whose header passed
 * (judgeUploadHeader): the whole image is decoded (a truncated or corrupt file fails here), turned
 * upright from its EXIF orientation, and written again in its own format without any metadata
 * (GPS included).
 */
export async function normalizeUpload(
  input: Buffer,
  format: ImageFormat,
  maxPixels: number,
): Promise<NormalizedImage> {
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

/** A task refused by a Semaphore whose waiting line is full. */
export class QueueFullError extends Error {
  constructor() {
    super('Too many tasks are waiting.');
  }
}

/**
 * At most `limit` tasks at once; at most `queueLimit` others wait their turn, in order, and any
 * more are refused at once (QueueFullError). A finished task hands its slot to the next waiting
 * one, so a newcomer never slips in between.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly limit: number,
    private readonly queueLimit = Number.POSITIVE_INFINITY,
  ) {}

  /** Tasks waiting for a slot. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running += 1;
    else if (this.waiting.length >= this.queueLimit) throw new QueueFullError();
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
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
