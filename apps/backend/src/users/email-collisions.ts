import { canonicalEmailOf, EmailRefusal } from './email-address';

/** The command that lists the accounts sharing one canonical address and renames one of them. */
export const EMAIL_COLLISIONS_COMMAND = 'pnpm --filter backend user:email-collisions';

export interface StoredAddress {
  id: string;
  email: string;
}

export interface RefusedAddress extends StoredAddress {
  refusal: EmailRefusal;
}

export interface AddressReport {
  /** Each user's canonical form, by id (best effort for a refused address, D-77). */
  canonicalById: Map<string, string>;
  /** Groups of two or more accounts whose addresses have one canonical form, in the rows' order. */
  collisions: StoredAddress[][];
  /** Addresses the rules of D-77 refuse today: kept, and still usable to sign in and reset. */
  refused: RefusedAddress[];
}

/** What the canonical rules of D-77 make of stored addresses (the migration, the command). */
export function addressReportOf(rows: StoredAddress[]): AddressReport {
  const canonicalById = new Map<string, string>();
  const byCanonical = new Map<string, StoredAddress[]>();
  const refused: RefusedAddress[] = [];
  for (const row of rows) {
    const { canonical, refusal } = canonicalEmailOf(row.email);
    canonicalById.set(row.id, canonical);
    byCanonical.set(canonical, [...(byCanonical.get(canonical) ?? []), row]);
    if (refusal !== null) refused.push({ ...row, refusal });
  }
  const collisions = [...byCanonical.values()].filter((group) => group.length > 1);
  return { canonicalById, collisions, refused };
}

/** Every user's id and address, oldest first: what addressReportOf reads. */
export const STORED_ADDRESSES_SQL = `SELECT "id", "email" FROM "users" ORDER BY "created_at", "id"`;
