import type { InfoDensity } from '../request/listing-request';

/** What each density reads of an offer `o`; `full` reads the stored record only. */
export const DENSITY_COLUMNS: Record<InfoDensity, string> = {
  min: 'o.id, o.name, o.slug',
  card: `o.id, o.name, o.slug, o.description, o.rating, to_char(o.next_departure, 'YYYY-MM-DD"T"HH24:MI:SS') AS next_departure`,
  search: 'o.id, o.name, o.destination_name, o.discount_club, o.is_valid, o.categories, o.departure_dates',
  full: 'o.id, o.record',
};

/**
 * The index's generation (`search_stats.generation`), read by the statements of a search so that
 * it knows whether the database holds the catalogue its in-memory index was loaded from.
 */
export const GENERATION_COLUMN = '(SELECT generation::text FROM search_stats LIMIT 1) AS generation';
