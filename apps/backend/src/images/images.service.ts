import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import { MetricsService } from '@rt/platform';
import { Counter } from 'prom-client';
import { ImageResponseDto } from './dto/image.response';
import { Image } from './image.entity';
import { ImageSettings } from './image.settings';
import { ImageStorage } from './image-storage';
import {
  CONTENT_TYPE_OF,
  ImageRefusal,
  ImageRefusedError,
  normalizeUpload,
  resizeVariant,
  Semaphore,
  SingleFlight,
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

const REFUSALS: Record<ImageRefusal | 'missing' | 'too-large', string> = {
  missing: 'The image field is required.',
  'too-large': 'The image may not be greater than 10240 kilobytes.',
  'not-an-image': 'The image must be a file of type: jpg, jpeg, png, webp.',
  'unsupported-format': 'The image must be a file of type: jpg, jpeg, png, webp.',
  'too-many-pixels': 'The image has too many pixels.',
  corrupt: 'The image is corrupt or truncated.',
};

export const imageRefused = (refusal: keyof typeof REFUSALS): AppError =>
  AppError.validation({ image: [REFUSALS[refusal]] });

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
  private readonly resizes: Semaphore;
  private readonly variantsInFlight = new SingleFlight<Buffer>();
  private readonly variantsMade: Counter;

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
    this.resizes = new Semaphore(settings.IMAGE_RESIZE_CONCURRENCY);
    this.variantsMade = new Counter({
      name: 'image_variants_made_total',
      help: 'Image variants resized and stored (each variant once, on its first request).',
      registers: [metrics.registry],
    });
  }

  /**
   * `POST /images`: JPEG, PNG or WebP by content; the oriented, metadata-free original is stored
   * under its new id, then the row is written (if that fails, the file is removed: nothing is
   * left behind a refusal or an error).
   */
  async upload(file: Buffer | undefined, userId: string): Promise<ImageResponseDto> {
    if (!file || file.length === 0) throw imageRefused('missing');
    let normalized;
    try {
      normalized = await normalizeUpload(file, this.settings.IMAGE_MAX_PIXELS);
    } catch (error) {
      if (error instanceof ImageRefusedError) throw imageRefused(error.refusal);
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
      const resized = await this.resizes.run(() => resizeVariant(original, image.format, width));
      await this.storage.put(key, resized, CONTENT_TYPE_OF[image.format]);
      this.variantsMade.inc();
      this.logger.debug({ image_id: image.id, width }, 'Variant made');
      return resized;
    });
  }
}
