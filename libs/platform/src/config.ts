import { plainToInstance, Transform } from 'class-transformer';
import type { ValueProvider } from '@nestjs/common';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  getMetadataStorage,
  isFQDN,
  isIP,
  validateSync,
} from 'class-validator';
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

/**
 * Composed setting decorators: each is one optional variable of a kind, read from its string form
 * and validated (a variable without a default is `undefined` when unset). A rule of its own (a
 * pattern, a condition) is added beside it as a class-validator decorator.
 */
export interface NumberBounds {
  min?: number;
  max?: number;
}

const composed =
  (...decorators: PropertyDecorator[]): PropertyDecorator =>
  (target, property) => {
    for (const decorator of decorators) decorator(target, property);
  };

const bounded = ({ min, max }: NumberBounds): PropertyDecorator[] => [
  ...(min === undefined ? [] : [Min(min)]),
  ...(max === undefined ? [] : [Max(max)]),
];

/** A whole number (`30`, `-1`), within the bounds given. */
export const IntSetting = (bounds: NumberBounds = {}) =>
  composed(EnvInt(), IsOptional(), IsInt(), ...bounded(bounds));

/** A decimal number (`0.5`, `.25`), within the bounds given. */
export const FloatSetting = (bounds: NumberBounds = {}) =>
  composed(EnvFloat(), IsOptional(), IsNumber(), ...bounded(bounds));

/** A boolean, written as a query-string boolean (`true`, `1`, `yes`, `false`, `0`, `no`). */
export const BooleanSetting = () => composed(EnvBoolean(), IsOptional(), IsBoolean());

/** A string, at most `maxLength` characters long when given. */
export const StringSetting = ({ maxLength }: { maxLength?: number } = {}) =>
  composed(IsOptional(), IsString(), ...(maxLength === undefined ? [] : [MaxLength(maxLength)]));

/** One of the values given. */
export const OneOfSetting = (values: readonly unknown[]) => composed(IsOptional(), IsIn(values));

/** An address to listen on: an IP address (`127.0.0.1`, `0.0.0.0`, `::`) or a host name (`localhost`). */
export const HostSetting = () =>
  composed(
    IsOptional(),
    IsString(),
    ValidateBy({
      name: 'isHost',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && (isIP(value) || isFQDN(value, { require_tld: false })),
        defaultMessage: () => '$property must be an IP address or a host name',
      },
    }),
  );

/** A comma-separated list of strings (`a, b,c`); `each` adds rules every item must follow. */
export const ListSetting = (...each: PropertyDecorator[]) =>
  composed(EnvList(), IsOptional(), IsArray(), IsString({ each: true }), ...each);

/** Variables every service reads. Each service adds its features' sections (`loadSections`). */
export class BaseEnv {
  @IntSetting({ min: 0, max: 65535 })
  PORT?: number;

  /**
   * The address the HTTP server listens on: loopback by default, so that a local run is not reached
   * from the network; the images set `0.0.0.0` (every interface), which `pnpm check:deploy` asserts.
   */
  @HostSetting()
  HOST: string = '127.0.0.1';

  @OneOfSetting(APP_ENVS)
  APP_ENV: AppEnv = 'local';

  @StringSetting()
  DATABASE_URL?: string;

  @StringSetting()
  DATA_DIR?: string;

  @BooleanSetting()
  DB_MIGRATE_ON_START?: boolean;

  @IntSetting({ min: 1, max: 200 })
  DB_POOL_SIZE: number = 10;

  @OneOfSetting(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: string = 'info';

  /** `pretty` (readable lines, the default on a terminal) or `json` (the default otherwise). */
  @OneOfSetting(['json', 'pretty'])
  LOG_FORMAT?: 'json' | 'pretty';

  /** Express `trust proxy`: `true`, `false`, a hop count, or a list of addresses/subnets. */
  @StringSetting()
  TRUST_PROXY: string = 'false';

  /** Largest JSON body accepted, in bytes (larger → 413 `payload_too_large`). */
  @IntSetting({ min: 1024 })
  BODY_LIMIT_BYTES: number = 1024 * 1024;

  /** How long in-flight requests get to finish after SIGTERM before connections are cut. */
  @IntSetting({ min: 0 })
  SHUTDOWN_GRACE_MS: number = 10_000;

  @StringSetting()
  VERSION_TAG?: string;

  @StringSetting()
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
  const { settings, problems } = readSettings(envClass, env);
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}

type SettingsClass = new () => object;
type Intersection<U> = (U extends unknown ? (union: U) => void : never) extends (all: infer I) => void
  ? I
  : never;
/** The one configuration object of the sections given: every section's variables side by side. */
export type SectionsOf<S extends readonly SettingsClass[]> = Intersection<InstanceType<S[number]>>;

/**
 * Reads and validates the environment into a service's configuration, a section per feature (each
 * a class of settings, such as BaseEnv). Every bad variable of every section is named in one
 * ConfigError. The sections' variables must not overlap (a start-up error otherwise). A section's
 * rules also see the values of the sections listed before it, read and defaulted (a `ValidateIf`
 * on BaseEnv's APP_ENV: what a deployment must set).
 *
 * The result is one object holding every section's variables, so that a feature injected its
 * section (`sectionProviders`) reads the same validated values as the rest of the service.
 */
export function loadSections<S extends readonly SettingsClass[]>(
  sections: S,
  env: Record<string, string | undefined> = process.env,
): SectionsOf<S> {
  const merged: Record<string, unknown> = {};
  const owners = new Map<string, string>();
  const problems: string[] = [];
  for (const section of sections) {
    const read = readSettings(section, env, merged);
    problems.push(...read.problems);
    for (const [name, value] of Object.entries(read.settings)) {
      const owner = owners.get(name);
      if (owner) throw new Error(`${name} is a setting of both ${owner} and ${section.name}`);
      owners.set(name, section.name);
      merged[name] = value;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return merged as SectionsOf<S>;
}

/**
 * Nest providers giving each section's class (the injection token a feature asks for) the service's
 * one configuration object, typed as that section.
 */
export function sectionProviders(config: object, sections: readonly SettingsClass[]): ValueProvider[] {
  return sections.map((section) => ({ provide: section, useValue: config }));
}

function readSettings<T extends object>(
  settingsClass: new () => T,
  env: Record<string, string | undefined>,
  earlierSections: Record<string, unknown> = {},
): { settings: T; problems: string[] } {
  const settings = plainToInstance(
    settingsClass,
    { ...withoutEmptyValues(env), ...earlierSections },
    { exposeDefaultValues: true },
  );
  // Validated before anything is stripped, so that a rule may read an earlier section's value;
  // then only the class's own settings are kept (what `whitelist` would keep).
  const errors = validateSync(settings, { forbidUnknownValues: false });
  const own = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(settingsClass, '', true, false)
      .map((metadata) => metadata.propertyName),
  );
  for (const name of Object.keys(settings)) {
    if (!own.has(name)) delete (settings as Record<string, unknown>)[name];
  }
  const problems = errors.map((error) => {
    const given = env[error.property];
    const reasons = Object.values(error.constraints ?? {}).join('; ');
    return `${error.property}${given ? '' : ' (not set)'}: ${reasons}`;
  });
  return { settings, problems };
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
