import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';

const truthy = new Set(['true', '1', 'yes', 'on']);
const falsy = new Set(['false', '0', 'no', 'off']);

/**
 * Parses a query-string boolean as docs/decisions.md D-9 defines it: `true|false|1|0|yes|no|on|off`
 * in any case. Anything else is left as is, so that `@IsBoolean` refuses it with a 422.
 */
export function parseQueryBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return value;
  const normalised = value.trim().toLowerCase();
  if (truthy.has(normalised)) return true;
  if (falsy.has(normalised)) return false;
  return value;
}

export function QueryBoolean(): PropertyDecorator {
  return applyDecorators(
    Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => parseQueryBoolean(obj[key])),
    IsBoolean({ message: '$property must be one of true, false, 1, 0, yes, no, on, off.' }),
  );
}
