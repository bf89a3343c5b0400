import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import { MetricsService } from '@rt/platform';
import { Counter, Gauge } from 'prom-client';
import sharp from 'sharp';
import { ImageResponseDto } from './dto/image.response';
import { Image } from './image.entity';
import { ImageSettings } from './image.settings';
import { ImageStorage } from './image-storage';
import {
  CONTENT_TYPE_OF,
  ImageRefusal,
  ImageRefusedError,
  judgeUploadHeader,
  normalizeUpload,
  QueueFullError,
  resizeVariant,
  Semaphore,
  SingleFlight,
  UploadLimits,
} from './image-processing';
import {
  EXTENSION_OF,
  ImageVariants,
  imagePath,
  parseImageRequest,
  signedUrl,
  variantsOf,
} from './image-urls';
import { SigningPair, signingPairOf } from './imgproxy-signature';
import { ImagesRepository } from './images.repository';

/** Largest upload (docs/backend-api.md "Limits": 10240 KiB). */
export const MAX_IMAGE_BYTES = 10_485_760;

type DimensionRefusal = Extract<ImageRefusal, 'too-wide' | 'too-tall' | 'too-elongated'>;

const REFUSALS: Record<Exclude<ImageRefusal, DimensionRefusal> | 'missing' | 'too-large', string> = {
  missing: 'The image field is required.',
  'too-large': 'The image may not be greater than 10240 kilobytes.',
  'not-an-image': 'The image must be a file of type: jpg, jpeg, png, webp.',
  'unsupported-format': 'The image must be a file of type: jpg, jpeg, png, webp.',
  'too-many-pixels': 'The image has too many pixels.',
  corrupt: 'The image is corrupt or truncated.',
};

export const imageRefused = (refusal: keyof typeof REFUSALS): AppError =>
  AppError.validation({ image: [REFUSALS[refusal]] });

/** The refusals of a width, height or aspect ratio past its limit: a message naming it, a `reason`. */
const DIMENSION_REFUSALS: Record<
  DimensionRefusal,
  { reason: string; message: (s: ImageSettings) => string }
> = {
  'too-wide': {
    reason: 'image_too_wide',
    message: (s) => `The image may not be wider than ${s.IMAGE_MAX_WIDTH} pixels.`,
  },
  'too-tall': {
    reason: 'image_too_tall',
    message: (s) => `The image may not be taller than ${s.IMAGE_MAX_HEIGHT} pixels.`,
  },
  'too-elongated': {
    reason: 'image_aspect_ratio',
    message: (s) =>
      `The image's long side may not be more than ${s.IMAGE_MAX_ASPECT_RATIO} times its short side.`,
  },
};

/** How long a client turned away by a full queue of images is asked to wait. */
const BUSY_RETRY_AFTER_SECONDS = 5;

const imagesBusy = (): AppError =>
  new AppError(
    ErrorCode.ServiceUnavailable,
    'Too many images are being processed; try again shortly.',
    undefined,
    undefined,
    { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
  );

export interface ServedImage {
  data: Buffer;
  contentType: string;
  /** Strong, as the bytes behind a URL never change. */
  etag: string;
}

const originalKey = (image: Pick<Image, 'id' | 'format'>) => `${image.id}.${EXTENSION_OF[image.format]}`;
const variantKey = (image: Pick<Image, 'id' | 'format'>, width: number) =>
  `variants/${image.id}-w${width}.${EXTENSION_OF[image.format]}`;

/**
 * Images: uploads judged by their content and stored once; signed URLs in imgproxy's format;
 * the `/img` paths served from storage, each variant resized once on its first request.
 */
@Injectable()
export class ImagesService {
  private readonly logger = new Logger('Images');
  private readonly pair: SigningPair;
  private readonly limits: UploadLimits;
  /** Every decode (an upload normalised, a variant resized), bounded together (D-41). */
  private readonly decodes: Semaphore;
  private readonly variantsInFlight = new SingleFlight<Buffer>();
  private readonly variantsMade: Counter;
  private readonly uploadsDecoded: Counter;
  private readonly busyRefusals: Counter;

  constructor(
    private readonly images: ImagesRepository,
    private readonly storage: ImageStorage,
    private readonly settings: ImageSettings,
    metrics: MetricsService,
  ) {
    // A local run has its pair by now (main.ts reads it from DATA_DIR: local-signing-keys.ts);
    // an app built without one (tests, commands) draws a random pair for its lifetime.
    this.pair = signingPairOf(
      settings.IMGPROXY_KEY ?? randomBytes(32).toString('hex'),
      settings.IMGPROXY_SALT ?? randomBytes(32).toString('hex'),
    );
    this.limits = {
      maxPixels: settings.IMAGE_MAX_PIXELS,
      maxWidth: settings.IMAGE_MAX_WIDTH,
      maxHeight: settings.IMAGE_MAX_HEIGHT,
      maxAspectRatio: settings.IMAGE_MAX_ASPECT_RATIO,
    };
    // One libvips thread per image: the semaphore's bound is then the number of cores images take
    // (sharp's default is the core count, except on glibc without jemalloc).
    sharp.concurrency(1);
    this.decodes = new Semaphore(settings.IMAGE_RESIZE_CONCURRENCY, settings.IMAGE_QUEUE_LIMIT);
    this.variantsMade = new Counter({
      name: 'image_variants_made_total',
      help: 'Image variants resized and stored (each variant once, on its first request).',
      registers: [metrics.registry],
    });
    this.uploadsDecoded = new Counter({
      name: 'image_uploads_decoded_total',
      help: 'Uploads whose header passed and that were decoded (whatever the outcome).',
      registers: [metrics.registry],
    });
    const decodes = this.decodes;
    new Gauge({
      name: 'image_decodes_waiting',
      help: 'Images waiting for a decoding slot (IMAGE_RESIZE_CONCURRENCY); past IMAGE_QUEUE_LIMIT, 503.',
      registers: [metrics.registry],
      collect() {
        this.set(decodes.waitingCount);
      },
    });
    this.busyRefusals = new Counter({
      name: 'image_busy_refusals_total',
      help: 'Uploads and first variant requests answered 503: IMAGE_QUEUE_LIMIT images were already waiting.',
      registers: [metrics.registry],
    });
  }

  /**
   * `POST /images`: JPEG, PNG or WebP by content, within the limits read from its header; then
   * decoded under the bound every decode shares (a full queue → 503). The oriented, metadata-free
   * original is stored under its new id, then the row is written (if that fails, the file is
   * removed: nothing is left behind a refusal or an error).
   */
  async upload(file: Buffer | undefined, userId: string): Promise<ImageResponseDto> {
    if (!file || file.length === 0) throw imageRefused('missing');
    let normalized;
    try {
      const format = await judgeUploadHeader(file, this.limits);
      normalized = await this.decoding(() => {
        this.uploadsDecoded.inc();
        return normalizeUpload(file, format, this.limits.maxPixels);
      });
    } catch (error) {
      if (error instanceof ImageRefusedError) throw this.refusalOf(error.refusal);
      throw error;
    }
    const image = { id: randomUUID(), format: normalized.format };
    const key = originalKey(image);
    await this.storage.put(key, normalized.data, CONTENT_TYPE_OF[normalized.format]);
    try {
      await this.images.insert({
        ...image,
        width: normalized.width,
        height: normalized.height,
        byteSize: normalized.data.length,
        uploadedByUserId: userId,
      });
    } catch (error) {
      await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
    return {
      id: image.id,
      url: signedUrl(this.pair, imagePath(image)),
      variants: variantsOf(this.pair, { ...image, width: normalized.width }),
    };
  }

  async exists(id: string): Promise<boolean> {
    return (await this.images.findById(id)) !== null;
  }

  /** The variants map of an image, or null (no image, or an id that names none). */
  async variantsOfId(id: string | null): Promise<ImageVariants | null> {
    if (id === null) return null;
    const image = await this.images.findById(id);
    return image ? variantsOf(this.pair, image) : null;
  }

  /** The variants maps of several images at once (lists), by image id. */
  async variantsOfIds(ids: (string | null)[]): Promise<Map<string, ImageVariants>> {
    const unique = [...new Set(ids.filter((id): id is string => id !== null))];
    const images = await this.images.findByIds(unique);
    return new Map(images.map((image) => [image.id, variantsOf(this.pair, image)]));
  }

  /**
   * `GET /img/<signature>/<options>/plain/<id>.<ext>`: a bad signature → 403; options the backend
   * does not issue, an unknown image or a wrong extension → 404.
   */
  async serve(pathUnderImg: string): Promise<ServedImage> {
    const request = parseImageRequest(this.pair, pathUnderImg);
    if (request.outcome === 'bad-signature')
      throw new AppError(ErrorCode.Forbidden, 'The image signature is not valid.');
    if (request.outcome === 'not-found') throw AppError.notFound('Image not found.');
    const { id, extension, width } = request.image;
    const image = await this.images.findById(id);
    if (!image || EXTENSION_OF[image.format] !== extension) throw AppError.notFound('Image not found.');
    const contentType = CONTENT_TYPE_OF[image.format];
    if (width === undefined || width >= image.width) {
      const data = await this.storage.get(originalKey(image));
      if (!data) throw AppError.notFound('Image not found.');
      return { data, contentType, etag: `"${image.id}"` };
    }
    const data = await this.variant(image, width);
    return { data, contentType, etag: `"${image.id}-w${width}"` };
  }

  /** A stored variant, or made now: one resize per variant, however many requests ask at once. */
  private async variant(image: Image, width: number): Promise<Buffer> {
    const key = variantKey(image, width);
    const stored = await this.storage.get(key);
    if (stored) return stored;
    return this.variantsInFlight.run(key, async () => {
      const original = await this.storage.get(originalKey(image));
      if (!original) throw AppError.notFound('Image not found.');
      const resized = await this.decoding(() => resizeVariant(original, image.format, width));
      await this.storage.put(key, resized, CONTENT_TYPE_OF[image.format]);
      this.variantsMade.inc();
      this.logger.debug({ image_id: image.id, width }, 'Variant made');
      return resized;
    });
  }

  /** Runs a decode under the shared bound; a full queue is a 503 with `Retry-After`. */
  private async decoding<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await this.decodes.run(task);
    } catch (error) {
      if (!(error instanceof QueueFullError)) throw error;
      this.busyRefusals.inc();
      throw imagesBusy();
    }
  }

  private refusalOf(refusal: ImageRefusal): AppError {
    if (refusal in DIMENSION_REFUSALS) {
      const { reason, message } = DIMENSION_REFUSALS[refusal as DimensionRefusal];
      return AppError.validation({ image: [message(this.settings)] }, reason);
    }
    return imageRefused(refusal as keyof typeof REFUSALS);
  }
}
