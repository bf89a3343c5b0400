import type { Sql } from '@rt/database';
import type { CodeAction } from './activation-code-event.entity';
import { CODE_COLUMNS } from './activation-code-listing.sql';
import { statusSql } from './activation-code-status.sql';

/**
 * The one way codes change state: every statement that moves codes through their lifecycle (a
 * claim, a trip's start, a cancel, a reimbursement, a renewal, a batch's new expiration) is built
 * by `codeMoveSql`, and every statement that creates codes appends their history with
 * `codeEventsSql`, so "every lifecycle change logs an event" holds by construction: the update
 * and its history rows are one statement, and no other statement updates a code.
 */

/** One history row (`activation_code_events`) per code of `source`, a CTE whose rows are codes. */
export interface CodeEvents {
  action: CodeAction;
  /** The status before, a SQL expression over `c` (the code), or `NULL` for a generation. */
  fromStatus: string;
  /** Who makes the change: a SQL expression (a parameter). */
  actor: string;
  /** A jsonb expression over `c`; absent: null. */
  details?: string;
}

export interface CodeMove extends Omit<CodeEvents, 'fromStatus'> {
  /**
   * The codes that move: a condition over `c` (activation_codes), written as the allowed source
   * states, and checked again on the latest row version under the row lock, so that of two
   * concurrent identical moves one moves each code and the other finds it moved.
   */
  where: string;
  /**
   * Several codes at once: they are locked in id order, so that concurrent moves never deadlock.
   * (A move of one code by a unique key needs no order.)
   */
  lockInIdOrder: boolean;
  /** The SET clause, over `c`. */
  set: string;
  /** Values of before the move that `details` reads on `c` (name → expression over `c`). */
  before?: Record<string, string>;
  /** Common table expressions written before the move's own (without `WITH`), e.g. the batch's update. */
  with?: string;
  /** What the statement answers, read from `moved` (the moved codes). Default: their `CODE_COLUMNS`. */
  answer?: string;
}

const param = (values: unknown[], value: unknown): string => {
  values.push(value);
  return `$${values.length}`;
};

/**
 * The INSERT of the history rows of the codes of `source` (for a CTE). The action is appended to
 * `values` as a parameter.
 */
export function codeEventsSql(source: string, events: CodeEvents, values: unknown[]): string {
  return `INSERT INTO activation_code_events (code_id, action, from_status, to_status, actor_user_id, at, details)
         SELECT c.id, ${param(values, events.action)}, ${events.fromStatus}, ${statusSql('c')}, ${events.actor}, now(),
                ${events.details ?? 'NULL::jsonb'}
           FROM ${source} c`;
}

/**
 * A lifecycle move as one statement over `values` (the parameters its parts name; the action is
 * appended): lock the codes whose state allows the move (`target`, with their status before),
 * update them (`moved`), append one history row each (`logged`), then answer `answer`. The codes
 * whose state does not allow it are left as they are.
 */
export function codeMoveSql(move: CodeMove, values: unknown[]): Sql {
  const before = Object.entries(move.before ?? {});
  const logged = codeEventsSql(
    'moved',
    { action: move.action, fromStatus: 'c.from_status', actor: move.actor, details: move.details },
    values,
  );
  return {
    text: `WITH ${move.with ? `${move.with}, ` : ''}target AS (
         SELECT c.id, ${statusSql('c')} AS from_status${before.map(([name, value]) => `, ${value} AS ${name}`).join('')}
           FROM activation_codes c
          WHERE ${move.where}${move.lockInIdOrder ? '\n          ORDER BY c.id' : ''}
            FOR UPDATE
       ), moved AS (
         UPDATE activation_codes c SET ${move.set}
           FROM target t
          WHERE c.id = t.id
         RETURNING c.*, t.from_status${before.map(([name]) => `, t.${name}`).join('')}
       ), logged AS (
         ${logged}
       )
       ${move.answer ?? `SELECT ${CODE_COLUMNS} FROM moved c JOIN activation_code_batches b ON b.id = c.batch_id`}`,
    values,
  };
}
