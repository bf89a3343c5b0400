import type { EmbeddedExtension } from '@rt/database';

/**
 * Extensions the backend migrations create, which the embedded database (PGlite) must load:
 * pg_trgm for the activation codes' infix search (activation_codes_full_code_trgm_idx); cube and
 * earthdistance for the providers' proximity search (providers_location_idx).
 */
export const BACKEND_EXTENSIONS: EmbeddedExtension[] = ['pg_trgm', 'cube', 'earthdistance'];
