import { parseArgs } from 'node:util';
import type { Client } from 'pg';
import { openDatabase, withClient } from '@rt/database';
import { runEntryPoint } from '@rt/platform';
import { loadBackendConfig } from '../config';
import { BACKEND_EXTENSIONS } from '../database/extensions';
import { canonicalEmailOf } from '../users/email-address';
import {
  addressReportOf,
  type AddressReport,
  EMAIL_COLLISIONS_COMMAND,
  STORED_ADDRESSES_SQL,
  type StoredAddress,
} from '../users/email-collisions';

const USAGE = `Lists the accounts whose addresses have one canonical form (docs/decisions.md D-77), which the
migration EmailCanonical refuses to merge, and the addresses today's rules would refuse; renames one.

  ${EMAIL_COLLISIONS_COMMAND}
  ${EMAIL_COLLISIONS_COMMAND} -- --rename <user id> --to <new email>

Resolve each collision by renaming all accounts but the one that owns the mailbox (ask its users
which), then migrate again. The renamed account keeps its password, memberships and data; its new
address counts as unconfirmed until a reset or invitation link mailed to it is used.

Works on DATABASE_URL, or on the embedded database (DATA_DIR) when it is unset; stop the demo
server first, the embedded database is single-process. Runs before or after the migration.`;

/** An address with its invisible characters spelled out (`in\u{200B}fo@…`), so the operator sees them. */
const visible = (email: string): string =>
  email.replace(
    /[^\P{C}]|[^\P{Z}]/gu,
    (character) => `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`,
  );

/** The report as lines for the operator (addresses included: this is the operator's terminal, not a log). */
export function describeReport(report: AddressReport): string[] {
  const lines: string[] = [];
  if (report.collisions.length === 0) lines.push('No two accounts share a canonical address.');
  for (const group of report.collisions) {
    lines.push(`Accounts sharing ${report.canonicalById.get(group[0].id)}:`);
    for (const row of group) lines.push(`  ${row.id}  ${visible(row.email)}`);
  }
  if (report.refused.length > 0) {
    lines.push('Addresses kept though new ones of their shape are refused (they still sign in and reset):');
    for (const row of report.refused) lines.push(`  ${row.id}  ${visible(row.email)}  ${row.refusal}`);
  }
  if (report.collisions.length > 0) {
    lines.push(
      `Rename all accounts of a group but one: ${EMAIL_COLLISIONS_COMMAND} -- --rename <user id> --to <new email>`,
    );
  }
  return lines;
}

/** Whether the migration added `users.email_canonical` yet. */
async function hasCanonicalColumn(client: Client): Promise<boolean> {
  const found = await client.query(
    `SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'email_canonical'`,
  );
  return found.rowCount === 1;
}

/**
 * Gives the user a new address (its canonical form too, once the migration ran), refused when
 * today's rules refuse the address or another account holds its canonical form. Returns what to print.
 */
export async function renameAccount(client: Client, userId: string, newEmail: string): Promise<string> {
  const email = newEmail.trim();
  const { canonical, refusal } = canonicalEmailOf(email);
  if (refusal !== null) throw new Error(`The new address is refused (${refusal}).`);
  const rows = (await client.query<StoredAddress>(STORED_ADDRESSES_SQL)).rows;
  if (!rows.some((row) => row.id === userId)) throw new Error(`No user has the id ${userId}.`);
  const report = addressReportOf(rows.filter((row) => row.id !== userId));
  if ([...report.canonicalById.values()].includes(canonical)) {
    throw new Error(`Another account already has the address ${canonical}.`);
  }
  if (await hasCanonicalColumn(client)) {
    await client.query(`UPDATE "users" SET "email" = $2, "email_canonical" = $3 WHERE "id" = $1`, [
      userId,
      email,
      canonical,
    ]);
  } else {
    await client.query(`UPDATE "users" SET "email" = $2 WHERE "id" = $1`, [userId, email]);
  }
  return `User ${userId} renamed to ${email}.`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
  const { values } = parseArgs({
    args,
    options: { rename: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if ((values.rename === undefined) !== (values.to === undefined))
    throw new Error('--rename needs --to, and --to needs --rename.');
  const config = loadBackendConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.dataDir,
    extensions: BACKEND_EXTENSIONS,
  });
  try {
    await withClient(database.url, async (client) => {
      if (values.rename !== undefined && values.to !== undefined) {
        console.log(await renameAccount(client, values.rename, values.to));
      }
      const rows = (await client.query<StoredAddress>(STORED_ADDRESSES_SQL)).rows;
      for (const line of describeReport(addressReportOf(rows))) console.log(line);
    });
  } finally {
    await database.close();
  }
}

if (require.main === module) runEntryPoint(main);
