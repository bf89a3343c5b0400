/**
 * Viewing hats (`X-Viewing-As`, docs/decisions.md D-22): `super-admin`, `organization:<organization id>` or
 * `traveller`. Parsing is exact: lower-case names, a UUID for the organization (any case).
 */
export type Hat =
  { kind: 'super-admin' } | { kind: 'traveller' } | { kind: 'organization'; organizationId: string };

export type HatKind = Hat['kind'];

export const VIEWING_AS_HEADER = 'x-viewing-as';

export const HAT_PATTERN_SOURCE =
  '^(super-admin|traveller|organization:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$';
const HAT_PATTERN = new RegExp(HAT_PATTERN_SOURCE);

export function parseHat(value: unknown): Hat | null {
  if (typeof value !== 'string' || !HAT_PATTERN.test(value)) return null;
  if (value === 'super-admin') return { kind: 'super-admin' };
  if (value === 'traveller') return { kind: 'traveller' };
  return { kind: 'organization', organizationId: value.slice('organization:'.length).toLowerCase() };
}

export function formatHat(hat: Hat): string {
  return hat.kind === 'organization' ? `organization:${hat.organizationId}` : hat.kind;
}
