import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
import { parseQueryBoolean } from '@rt/contracts';

export const APP_ENVS = ['local', 'staging', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

export const EnvBoolean = () => Transform(({ value }: { value: unknown }) => parseQueryBoolean(value));

export const EnvInt = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value,
  );

/** A comma-separated list (`a, b,c`) as an array of its non-empty, trimmed items. */
export const EnvList = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : value,
  );

/** A decimal number (`0.5`, `-1`, `.25`); anything else is left for the validator to refuse. */
export const EnvFloat = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?(\d+\.?\d*|\.\d+)$/.test(value) ? Number(value) : value,
  );

/** Variables every service reads. Each service extends this class with its own. */
export class BaseEnv {
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsIn(APP_ENVS)
  APP_ENV: AppEnv = 'local';

  @IsOptional()
  @IsString()
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  @EnvBoolean()
  @IsOptional()
  @IsBoolean()
  DB_MIGRATE_ON_START?: boolean;

  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE: number = 10;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** `pretty` (readable lines, the default on a terminal) or `json` (the default otherwise). */
  @IsOptional()
  @IsIn(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty';

  /** Express `trust proxy`: `true`, `false`, a hop count, or a list of addresses/subnets. */
  @IsOptional()
  @IsString()
  TRUST_PROXY: string = 'false';

  /** Largest JSON body accepted, in bytes (larger → 413 `payload_too_large`). */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES: number = 1024 * 1024;

  /** How long in-flight requests get to finish after SIGTERM before connections are cut. */
  @EnvInt()
  @IsOptional()
  @IsInt()
  @Min(0)
  SHUTDOWN_GRACE_MS: number = 10_000;

  @IsOptional()
  @IsString()
  VERSION_TAG?: string;

  @IsOptional()
  @IsString()
  BUILD_DATE?: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the environment into one typed object at start-up. A missing or bad
 * variable throws a ConfigError naming it; nothing else in a service reads `process.env`.
 */
export function loadConfig<T extends object>(
  envClass: new () => T,
  env: Record<string, string | undefined> = process.env,
): T {
  const config = plainToInstance(envClass, withoutEmptyValues(env), { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) {
    throw new ConfigError(
      errors.map((error) => {
        const given = env[error.property];
        const reasons = Object.values(error.constraints ?? {}).join('; ');
        return `${error.property}${given ? '' : ' (not set)'}: ${reasons}`;
      }),
    );
  }
  return config;
}

/** Empty strings count as unset, as they do in most deployment tools, so defaults apply. */
function withoutEmptyValues(env: Record<string, string | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') kept[key] = value;
  }
  return kept;
}

export function parseTrustProxy(value: string): boolean | number | string[] {
  const asBoolean = parseQueryBoolean(value);
  if (typeof asBoolean === 'boolean') return asBoolean;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
