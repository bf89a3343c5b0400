import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeEventsSql, codeMoveSql } from './activation-code-moves.sql';
import { statusSql } from './activation-code-status.sql';

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('codeMoveSql', () => {
  it('locks the codes the condition allows, updates them and logs one event each, in one statement', () => {
    const sql = codeMoveSql(
      {
        action: 'claim',
        where: 'c.full_code = $1',
        lockInIdOrder: false,
        set: 'claimed_by_user_id = $2',
        actor: '$2',
      },
      ['ABCD-EFGH-JKLM', 'user'],
    );
    const text = squeeze(sql.text);
    expect(sql.values).toEqual(['ABCD-EFGH-JKLM', 'user', 'claim']);
    expect(text).toContain(
      squeeze(`target AS ( SELECT c.id, ${statusSql('c')} AS from_status FROM activation_codes c
                WHERE c.full_code = $1 FOR UPDATE )`),
    );
    expect(text).toContain(
      'moved AS ( UPDATE activation_codes c SET claimed_by_user_id = $2 FROM target t WHERE c.id = t.id RETURNING c.*, t.from_status )',
    );
    expect(text).toContain(
      squeeze(`logged AS ( INSERT INTO activation_code_events (code_id, action, from_status, to_status, actor_user_id, at, details)
                SELECT c.id, $3, c.from_status, ${statusSql('c')}, $2, now(), NULL::jsonb FROM moved c )`),
    );
    // By default it answers the moved codes as a code resource reads them.
    expect(text).toMatch(
      /\) SELECT c\.id, c\.full_code, .* FROM moved c JOIN activation_code_batches b ON b\.id = c\.batch_id$/,
    );
  });

  it('locks several codes in id order, keeps values of before the move for the details', () => {
    const sql = codeMoveSql(
      {
        action: 'renew',
        where: 'c.id = ANY($1::uuid[])',
        lockInIdOrder: true,
        before: { old_expires_at: 'c.expires_at' },
        set: 'expires_at = $3',
        actor: '$2',
        details: `jsonb_build_object('from', c.old_expires_at, 'to', c.expires_at)`,
      },
      [['id'], 'admin', new Date(0)],
    );
    const text = squeeze(sql.text);
    expect(sql.values).toEqual([['id'], 'admin', new Date(0), 'renew']);
    expect(text).toContain(`AS from_status, c.expires_at AS old_expires_at FROM activation_codes c`);
    expect(text).toContain('WHERE c.id = ANY($1::uuid[]) ORDER BY c.id FOR UPDATE');
    expect(text).toContain('RETURNING c.*, t.from_status, t.old_expires_at');
    expect(text).toContain(
      `$2, now(), jsonb_build_object('from', c.old_expires_at, 'to', c.expires_at) FROM moved c`,
    );
  });

  it('writes the CTEs it is given first, and answers what it is told', () => {
    const sql = codeMoveSql(
      {
        action: 'change_expiration',
        with: 'batch AS (UPDATE activation_code_batches SET expires_at = $2 WHERE id = $1 RETURNING id)',
        where: 'c.batch_id = $1',
        lockInIdOrder: true,
        set: 'expires_at = $2',
        actor: '$3',
        answer: 'SELECT (SELECT count(*)::integer FROM moved) AS changed',
      },
      ['batch', null, 'admin'],
    );
    const text = squeeze(sql.text);
    expect(text.startsWith('WITH batch AS (UPDATE activation_code_batches')).toBe(true);
    expect(text).toContain('RETURNING id), target AS (');
    expect(text.endsWith(') SELECT (SELECT count(*)::integer FROM moved) AS changed')).toBe(true);
    expect(text).toContain('logged AS ( INSERT INTO activation_code_events');
  });
});

describe('codeEventsSql', () => {
  it('logs each code of a CTE, the action as the next parameter', () => {
    const values: unknown[] = ['a', 'b'];
    const text = squeeze(
      codeEventsSql('inserted', { action: 'generate', fromStatus: 'NULL', actor: '$2' }, values),
    );
    expect(values).toEqual(['a', 'b', 'generate']);
    expect(text).toBe(
      squeeze(`INSERT INTO activation_code_events (code_id, action, from_status, to_status, actor_user_id, at, details)
               SELECT c.id, $3, NULL, ${statusSql('c')}, $2, now(), NULL::jsonb FROM inserted c`),
    );
  });
});

describe('the lifecycle moves', () => {
  it('are the only statement of the backend that updates codes', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? sources(join(dir, entry.name))
          : entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')
            ? [join(dir, entry.name)]
            : [],
      );
    const updating = sources(join(__dirname, '..')).filter((file) =>
      /UPDATE\s+activation_codes\b/i.test(readFileSync(file, 'utf8')),
    );
    expect(updating).toEqual([join(__dirname, 'activation-code-moves.sql.ts')]);
  });
});
