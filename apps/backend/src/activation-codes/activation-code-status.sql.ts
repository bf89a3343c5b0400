import type { BulkAction, CodeStatus } from './activation-code-status';

/**
 * The derived status of a code in SQL: the ONE definition that the listing, the `status[]`
 * filter, `meta.total`, the statistics, the batch counters and the export use (mirrored in
 * TypeScript by activation-code-status.ts). `alias` is the alias of `activation_codes` in the
 * statement (`c`). Expiration is `expires_at < now()` at the statement's transaction time, never
 * a stored flag.
 *
 * Each status is also written as a predicate on the raw columns (`statusPredicateSql`), so that a
 * filter is a plain condition the planner can use indexes for, instead of a CASE it cannot see
 * into.
 */

/**
 * "Today" for the trip window: the date in Europe/Zurich at the statement's transaction time
 * (mirrored by `zurichToday` in `isActive`).
 */
export const ZURICH_TODAY_SQL = `(now() AT TIME ZONE 'Europe/Zurich')::date`;

/**
 * Whether a trip runs on the code now: today (Europe/Zurich) lies in the trip window the trips
 * feature stored on the code when the trip started (`trip_starts_on` through `trip_ends_on`, the
 * date of its last dated step, both inclusive). A code without a trip has no window (both null,
 * activation_codes_trip_window_check): never active. Mirrored by `isActive`.
 */
const ACTIVE_SQL = (c: string): string =>
  `(${c}.trip_starts_on IS NOT NULL AND ${c}.trip_starts_on <= ${ZURICH_TODAY_SQL} AND ${c}.trip_ends_on >= ${ZURICH_TODAY_SQL})`;

const reimbursed = (c: string) => `${c}.reimbursed_at IS NOT NULL`;
const cancelled = (c: string) => `${c}.cancelled_at IS NOT NULL`;
const used = (c: string) => `${c}.used_at IS NOT NULL`;
const expired = (c: string) => `${c}.expires_at < now()`;
const notExpired = (c: string) => `(${c}.expires_at IS NULL OR ${c}.expires_at >= now())`;
const purchased = (c: string) => `${c}.purchased_at IS NOT NULL`;

/** The status as text (`'in stock'` with its space), by precedence. */
export function statusSql(c: string): string {
  return `(CASE
    WHEN ${reimbursed(c)} THEN 'reimbursed'
    WHEN ${cancelled(c)} THEN 'cancelled'
    WHEN ${ACTIVE_SQL(c)} THEN 'active'
    WHEN ${used(c)} THEN 'used'
    WHEN ${expired(c)} THEN 'expired'
    WHEN ${purchased(c)} THEN 'purchased'
    ELSE 'in stock' END)`;
}

/** Exactly the codes whose `statusSql` is `status`, as a plain condition. */
export function statusPredicateSql(status: CodeStatus, c: string): string {
  // What no status of higher precedence holds.
  const open = `${c}.reimbursed_at IS NULL AND ${c}.cancelled_at IS NULL AND NOT ${ACTIVE_SQL(c)}`;
  switch (status) {
    case 'reimbursed':
      return reimbursed(c);
    case 'cancelled':
      return `(${c}.reimbursed_at IS NULL AND ${cancelled(c)})`;
    case 'active':
      return `(${c}.reimbursed_at IS NULL AND ${c}.cancelled_at IS NULL AND ${ACTIVE_SQL(c)})`;
    case 'used':
      return `(${open} AND ${used(c)})`;
    case 'expired':
      return `(${open} AND ${c}.used_at IS NULL AND ${expired(c)})`;
    case 'purchased':
      return `(${open} AND ${c}.used_at IS NULL AND ${notExpired(c)} AND ${purchased(c)})`;
    case 'in stock':
      return `(${open} AND ${c}.used_at IS NULL AND ${notExpired(c)} AND ${c}.purchased_at IS NULL)`;
  }
}

/** Any of `statuses` (the OR of `status[]`). */
export function statusesPredicateSql(statuses: readonly CodeStatus[], c: string): string {
  return `(${statuses.map((status) => statusPredicateSql(status, c)).join(' OR ')})`;
}

/**
 * `count(*) AS total` and one count per status, named after the status (`"in stock"` quoted), for
 * the statistics and the batch counters. Counts come back from `pg` as strings (bigint).
 */
export function statusCountsSql(statuses: readonly CodeStatus[], c: string): string {
  const perStatus = statuses.map(
    (status) => `count(*) FILTER (WHERE ${statusPredicateSql(status, c)}) AS "${status}"`,
  );
  return ['count(*) AS total', ...perStatus].join(',\n       ');
}

/**
 * The codes that may make `action` (the allowed source states; mirrored by `skipReasonOf`).
 * Cancel: in stock, purchased or expired. Reimburse: purchased once, not reimbursed nor used
 * (cancelled and expired included). Renew: purchased once, not used, cancelled or reimbursed.
 */
export function transitionSourceSql(action: BulkAction, c: string): string {
  const notUsed = `${c}.used_at IS NULL AND NOT ${ACTIVE_SQL(c)}`;
  switch (action) {
    case 'cancel':
      return `(${c}.reimbursed_at IS NULL AND ${c}.cancelled_at IS NULL AND ${notUsed})`;
    case 'reimburse':
      return `(${c}.reimbursed_at IS NULL AND ${notUsed} AND ${purchased(c)})`;
    case 'renew':
      return `(${c}.reimbursed_at IS NULL AND ${c}.cancelled_at IS NULL AND ${notUsed} AND ${purchased(c)})`;
  }
}

/**
 * For the organizations feature's resources (`activation_codes_count`,
 * `activation_codes_in_stock_count`): two correlated counts over `activation_codes` for the
 * organization whose id is the SQL expression `organizationId` (e.g. `o.id`). Read-only; served by
 * activation_codes_organization_created_idx.
 */
export function organizationCodeCountsSql(organizationId: string): string {
  return `(SELECT count(*)::integer FROM activation_codes ac WHERE ac.organization_id = ${organizationId}) AS activation_codes_count,
         (SELECT count(*)::integer FROM activation_codes ac WHERE ac.organization_id = ${organizationId}
             AND ${statusPredicateSql('in stock', 'ac')}) AS activation_codes_in_stock_count`;
}
