import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The names stored before they had to be single lines (docs/decisions.md D-74): lists the table,
 * id and column of every row whose name holds a control character (C0, DEL, C1) or a line or
 * paragraph separator, and changes nothing. Such rows stay usable: partial updates leave an
 * unsent name as it is and `PUT /user` takes the stored name back unchanged. Only ids and column
 * names are printed, never the names (D-17).
 */
const NAME_COLUMNS: readonly [table: string, column: string][] = [
  ['users', 'first_name'],
  ['users', 'last_name'],
  ['organizations', 'name'],
  ['tours', 'name'],
  ['activities', 'name'],
  ['providers', 'name'],
  ['tags', 'name_fr'],
  ['tags', 'name_en'],
  ['tags', 'name_de'],
];

/** The characters `isSingleLine` refuses, as a PostgreSQL bracket expression (text holds no NUL). */
const NOT_SINGLE_LINE = '[\\x01-\\x1f\\x7f-\\x9f\\u2028\\u2029]';

export class ListMultiLineNames1796200000000 implements MigrationInterface {
  name = 'ListMultiLineNames1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const select = NAME_COLUMNS.map(
      ([table, column]) =>
        `SELECT '${table}' AS "table", "id"::text AS "id", '${column}' AS "column" ` +
        `FROM "${table}" WHERE "${column}" ~ $1`,
    ).join(' UNION ALL ');
    const rows = (await queryRunner.query(`${select} ORDER BY 1, 2, 3`, [NOT_SINGLE_LINE])) as {
      table: string;
      id: string;
      column: string;
    }[];
    if (rows.length === 0) return;
    console.warn(
      `[migrate] backend: ${rows.length} stored name(s) hold a line break or control character; ` +
        'they stay usable, and a change to one must be a single line:',
    );
    for (const row of rows) console.warn(`[migrate]   ${row.table} ${row.id} ${row.column}`);
  }

  public async down(): Promise<void> {
    // Nothing was changed.
  }
}
