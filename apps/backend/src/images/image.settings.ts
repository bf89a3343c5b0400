import { IsHexadecimal, IsString, IsUrl, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import {
  BooleanSetting,
  FloatSetting,
  IntSetting,
  OneOfSetting,
  StringSetting,
  type BaseEnv,
} from '@rt/platform';

/** Outside the local environment (APP_ENV is BaseEnv's, the section before: loadSections), or when given. */
const requiredOutsideLocal =
  (name: 'IMGPROXY_KEY' | 'IMGPROXY_SALT') => (settings: ImageSettings & Pick<BaseEnv, 'APP_ENV'>) =>
    settings.APP_ENV !== 'local' || settings[name] !== undefined;

/** Images: the imgproxy signing pair, the storage of originals and variants, the upload limits. */
export class ImageSettings {
  /**
   * imgproxy's signing key and salt, hex-encoded as imgproxy takes them (`IMGPROXY_KEY`,
   * `IMGPROXY_SALT`), so an imgproxy given the same pair and source serves the same URLs. Required
   * outside the local environment (every replica must sign alike); a local run without them draws
   * a pair once and keeps it in `keys/imgproxy.json` beside the embedded database (mode 0600;
   * images/local-signing-keys.ts), so image URLs outlive a restart.
   */
  @ValidateIf(requiredOutsideLocal('IMGPROXY_KEY'))
  @IsHexadecimal({ message: 'IMGPROXY_KEY must be hex-encoded (required outside the local environment)' })
  @MinLength(32)
  IMGPROXY_KEY?: string;

  @ValidateIf(requiredOutsideLocal('IMGPROXY_SALT'))
  @IsHexadecimal({ message: 'IMGPROXY_SALT must be hex-encoded (required outside the local environment)' })
  @MinLength(32)
  IMGPROXY_SALT?: string;

  /** Where originals and variants live: `local` (a directory) or `s3` (an S3-compatible store). */
  @OneOfSetting(['local', 's3'])
  IMAGE_STORAGE: 'local' | 's3' = 'local';

  /** The directory of the `local` storage (default: `images` beside DATA_DIR). */
  @StringSetting()
  IMAGE_DIR?: string;

  @ValidateIf((settings: ImageSettings) => settings.IMAGE_STORAGE === 's3')
  @IsString({ message: 'S3_BUCKET is required when IMAGE_STORAGE=s3' })
  @MinLength(3)
  S3_BUCKET?: string;

  /** An S3-compatible endpoint (MinIO, Ceph, …); unset: AWS itself. */
  @StringSetting()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  S3_ENDPOINT?: string;

  @StringSetting()
  S3_REGION: string = 'us-east-1';

  /** Static credentials; unset: the SDK's default chain (instance role, web identity, …). */
  @StringSetting()
  S3_ACCESS_KEY_ID?: string;

  @StringSetting()
  S3_SECRET_ACCESS_KEY?: string;

  /** Path-style addressing (`endpoint/bucket/key`), which most S3-compatible servers need. */
  @BooleanSetting()
  S3_FORCE_PATH_STYLE: boolean = false;

  /** Largest pixel count (width × height) of an upload, read from its header before decoding. */
  @IntSetting({ min: 1 })
  IMAGE_MAX_PIXELS: number = 50_000_000;

  /**
   * Widest and tallest upload in pixels, read from its header before decoding (docs/decisions.md
   * D-41): above the long side of any photo under IMAGE_MAX_PIXELS (a 50-megapixel camera's is
   * about 8,700), four times the widest variant (1920). Decoding costs per row as well as per
   * pixel: a 1 × 40,000,000 PNG under the pixel limit took half a minute.
   */
  @IntSetting({ min: 1 })
  IMAGE_MAX_WIDTH: number = 12_000;

  @IntSetting({ min: 1 })
  IMAGE_MAX_HEIGHT: number = 12_000;

  /**
   * Largest ratio of an upload's long side to its short side (20: 20:1), read from its header: a
   * wide panorama (about 10:1) passes, and every variant of an accepted image keeps at least 10
   * pixels on its short side (200 / 20).
   */
  @FloatSetting({ min: 1 })
  IMAGE_MAX_ASPECT_RATIO: number = 20;

  /**
   * Images decoded at once by this process: uploads normalised and variants resized share this
   * bound. Each holds one of libuv's threads while sharp works on it, so it must stay below
   * UV_THREADPOOL_SIZE: password hashing (scrypt) and file reads always keep a thread.
   */
  @IntSetting({ min: 1, max: 64 })
  @ValidateBy({
    name: 'belowThreadPool',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'number' && value < (args?.object as ImageSettings).UV_THREADPOOL_SIZE,
      defaultMessage: () =>
        'IMAGE_RESIZE_CONCURRENCY must be below UV_THREADPOOL_SIZE (libuv default 4), so that ' +
        'images never hold every libuv thread (password hashing needs one)',
    },
  })
  IMAGE_RESIZE_CONCURRENCY: number = 2;

  /**
   * Images allowed to wait for one of those slots; past them an upload (or a variant's first
   * request) answers 503 with `Retry-After` instead of waiting.
   */
  @IntSetting({ min: 0, max: 1000 })
  IMAGE_QUEUE_LIMIT: number = 16;

  /**
   * libuv's thread pool, which libuv reads from the environment itself at its first use (default
   * 4, max 1024); read here only to check IMAGE_RESIZE_CONCURRENCY against it.
   */
  @IntSetting({ min: 1, max: 1024 })
  UV_THREADPOOL_SIZE: number = 4;

  /**
   * The `local` storage's folder: IMAGE_DIR, default `images` beside the embedded database
   * (derived at start-up by loadBackendConfig, src/config.ts).
   */
  declare readonly imageDir: string;
}
