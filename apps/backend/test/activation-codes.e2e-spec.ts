import { csvCellSql } from '../src/activation-codes/activation-code-listing.sql';
import type { Organization } from '../src/organizations/organization.entity';
import type { ActingAs, SignedIn } from './factories';
import { createTestAppAsSuperAdmin, TestApp } from './test-app';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CODE = /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const STATUSES = ['reimbursed', 'cancelled', 'active', 'used', 'expired', 'purchased', 'in stock'];
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const PAST = '2020-01-01T00:00:00Z';
const FUTURE = '2031-06-30T22:00:00Z';

interface Code {
  id: string;
  full_code: string;
  status: string;
  organisation_id: string;
  batch_id: string;
  batch_number: number;
  expires_at: string | null;
  [key: string]: unknown;
}

describe('activation codes', () => {
  let t: TestApp;
  let admin: SignedIn;
  let asAdmin: ActingAs;

  beforeAll(async () => {
    ({ t, admin, asAdmin } = await createTestAppAsSuperAdmin());
  });
  afterAll(() => t.close());

  const generate = async (organization: Organization, count: number, extra: Record<string, unknown> = {}) =>
    (
      await asAdmin
        .post('/activation-codes/batches')
        .send({ organisation_id: organization.id, count, ...extra })
        .expect(201)
    ).body as { id: string; batch_number: number; code_counts: Record<string, number> };

  /** Every code of an organization, newest first (through the listing). */
  const codesOf = async (organization: Organization, query = ''): Promise<Code[]> => {
    const res = await asAdmin
      .get(`/activation-codes?organisation_id=${organization.id}&per_page=100${query}`)
      .expect(200);
    return res.body.data;
  };

  const list = async (query: string) => (await asAdmin.get(`/activation-codes?${query}`).expect(200)).body;

  const setStatus = (ids: string[], status: string, extra: Record<string, unknown> = {}) =>
    asAdmin.put('/activation-codes/status').send({ ids, status, ...extra });

  const claimAs = (user: SignedIn, fullCode: string, hat = 'traveller') =>
    user.as(hat).post('/activation-codes/claim').send({ full_code: fullCode });

  // Moves that need time to pass, set on the row directly: `used_at` without a trip window reads as a
  // code whose trip is over (trips.e2e-spec.ts covers trips and the active status).
  const markUsed = (id: string) =>
    t.dataSource.query('UPDATE activation_codes SET used_at = now() WHERE id = $1', [id]);
  const expire = (id: string) =>
    t.dataSource.query(`UPDATE activation_codes SET expires_at = now() - interval '1 day' WHERE id = $1`, [
      id,
    ]);

  const historyOf = async (id: string) =>
    (await asAdmin.get(`/activation-codes/${id}`).expect(200)).body.history as {
      action: string;
      from_status: string | null;
      to_status: string;
      actor_user_id: string | null;
      details: Record<string, unknown> | null;
    }[];

  /**
   * One code in each status, built through the API where one exists: in stock, purchased (claimed),
   * expired (never purchased), expired after purchase, used, cancelled, reimbursed.
   */
  const codesInEveryStatus = async (organization: Organization) => {
    await generate(organization, 7);
    const codes = await codesOf(organization);
    const [inStock, purchased, expired, expiredPurchased, used, cancelled, reimbursed] = codes;
    const traveller = await t.signedInUser();
    for (const code of [purchased, expiredPurchased, used, reimbursed]) {
      await claimAs(traveller, code.full_code).expect(200);
    }
    await expire(expired.id);
    await expire(expiredPurchased.id);
    await markUsed(used.id);
    await setStatus([cancelled.id], 'cancelled').expect(200);
    await setStatus([reimbursed.id], 'reimbursed').expect(200);
    return { inStock, purchased, expired, expiredPurchased, used, cancelled, reimbursed, traveller };
  };

  /** The seven codes of codesInEveryStatus, counted by status. */
  const EVERY_STATUS_COUNTS = {
    reimbursed: 1,
    cancelled: 1,
    active: 0,
    used: 1,
    expired: 2,
    purchased: 1,
    'in stock': 1,
  };

  describe('POST /activation-codes/batches', () => {
    it('generates a batch: codes in the format, counted in stock, numbered per organization', async () => {
      const organization = await t.makeOrganization();
      const res = await asAdmin
        .post('/activation-codes/batches')
        .send({ organisation_id: organization.id, count: 30, expires_at: FUTURE, internal_note: 'Fair 2026' })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        organisation_id: organization.id,
        batch_number: 1,
        internal_note: 'Fair 2026',
        expires_at: '2031-06-30T22:00:00.000Z',
        created_at: expect.stringMatching(ISO_UTC),
        code_counts: {
          total: 30,
          reimbursed: 0,
          cancelled: 0,
          active: 0,
          used: 0,
          expired: 0,
          purchased: 0,
          'in stock': 30,
        },
      });
      const codes = await codesOf(organization);
      expect(codes).toHaveLength(30);
      for (const code of codes) {
        expect(code.full_code).toMatch(CODE);
        expect(code).toMatchObject({
          status: 'in stock',
          batch_id: res.body.id,
          batch_number: 1,
          expires_at: '2031-06-30T22:00:00.000Z',
        });
      }
      expect(new Set(codes.map((code) => code.full_code)).size).toBe(30);
      const second = await generate(organization, 1);
      expect(second.batch_number).toBe(2);
      const other = await generate(await t.makeOrganization(), 1);
      expect(other.batch_number).toBe(1);
    });

    it('records the generation in each code history', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 2);
      const [code] = await codesOf(organization);
      expect(await historyOf(code.id)).toEqual([
        {
          action: 'generate',
          from_status: null,
          to_status: 'in stock',
          actor_user_id: admin.user.id,
          at: expect.stringMatching(ISO_UTC),
          details: null,
        },
      ]);
    });

    it('gives distinct consecutive batch numbers to two generations running at once', async () => {
      const organization = await t.makeOrganization();
      const [a, b] = await Promise.all([generate(organization, 200), generate(organization, 200)]);
      expect([a.batch_number, b.batch_number].sort()).toEqual([1, 2]);
      const third = await generate(organization, 1);
      expect(third.batch_number).toBe(3);
    });

    it.each([
      [{ count: 0 }, 'count', 'The count field must be at least 1.'],
      [{ count: 100_001 }, 'count', 'The count field must not be greater than 100000.'],
      [{ count: '5' }, 'count', 'The count field must be an integer.'],
      [{ expires_at: '2026-13-01T00:00:00Z' }, 'expires_at', expect.stringContaining('ISO 8601')],
      [{ expires_at: '2026-11-24' }, 'expires_at', expect.stringContaining('ISO 8601')],
      [{ organisation_id: 'nope' }, 'organisation_id', 'The organisation id field must be a valid UUID.'],
      [{ organisation_id: MISSING_ID }, 'organisation_id', 'The selected organisation id is invalid.'],
    ])('refuses %j with 422', async (body, field, message) => {
      const organization = await t.makeOrganization();
      const res = await asAdmin
        .post('/activation-codes/batches')
        .send({ organisation_id: organization.id, count: 1, ...body })
        .expect(422);
      expect(res.body.errors).toEqual({ [field]: [message] });
    });

    it('does not spend a batch number on a refused generation', async () => {
      const organization = await t.makeOrganization();
      await asAdmin
        .post('/activation-codes/batches')
        .send({ organisation_id: MISSING_ID, count: 1 })
        .expect(422);
      expect((await generate(organization, 1)).batch_number).toBe(1);
    });
  });

  describe('derived status', () => {
    it('follows the precedence reimbursed > cancelled > active > used > expired > purchased > in stock', async () => {
      const organization = await t.makeOrganization();
      const codes = await codesInEveryStatus(organization);
      const byId = new Map((await codesOf(organization)).map((code) => [code.id, code]));
      const expectations: [Code, string, Record<string, boolean>][] = [
        [codes.inStock, 'in stock', {}],
        [codes.purchased, 'purchased', { is_purchased: true }],
        [codes.expired, 'expired', { is_expired: true }],
        [codes.expiredPurchased, 'expired', { is_expired: true, is_purchased: true }],
        [codes.used, 'used', { is_used: true, is_purchased: true }],
        [codes.cancelled, 'cancelled', { is_cancelled: true }],
        [codes.reimbursed, 'reimbursed', { is_reimbursed: true, is_cancelled: true, is_purchased: true }],
      ];
      for (const [code, status, flags] of expectations) {
        expect(byId.get(code.id)).toMatchObject({
          status,
          is_reimbursed: false,
          is_cancelled: false,
          is_active: false,
          is_used: false,
          is_expired: false,
          is_purchased: false,
          ...flags,
        });
      }
      const reimbursed = byId.get(codes.reimbursed.id)!;
      expect(reimbursed.reimbursed_at).toMatch(ISO_UTC);
      expect(reimbursed.cancelled_at).toMatch(ISO_UTC);
      expect(reimbursed.purchased_at).toMatch(ISO_UTC);
      expect(byId.get(codes.inStock.id)).toMatchObject({
        purchased_at: null,
        used_at: null,
        cancelled_at: null,
        reimbursed_at: null,
        expires_at: null,
      });
    });

    it('filters by each status (the same definition as the resource) and counts them', async () => {
      const organization = await t.makeOrganization();
      const codes = await codesInEveryStatus(organization);
      const expected: Record<string, string[]> = {
        'in stock': [codes.inStock.id],
        purchased: [codes.purchased.id],
        expired: [codes.expired.id, codes.expiredPurchased.id],
        used: [codes.used.id],
        active: [],
        cancelled: [codes.cancelled.id],
        reimbursed: [codes.reimbursed.id],
      };
      for (const [status, ids] of Object.entries(expected)) {
        const body = await list(`organisation_id=${organization.id}&status[]=${encodeURIComponent(status)}`);
        expect(body.data.map((code: Code) => code.id).sort()).toEqual([...ids].sort());
        expect(body.meta.total).toBe(ids.length);
        for (const code of body.data) expect(code.status).toBe(status);
      }
      const either = await list(`organisation_id=${organization.id}&status[]=used&status[]=cancelled`);
      expect(either.data.map((code: Code) => code.id).sort()).toEqual(
        [codes.used.id, codes.cancelled.id].sort(),
      );

      const stats = await asAdmin
        .get(`/activation-codes/statistics?organisation_id=${organization.id}`)
        .expect(200);
      expect(stats.body).toEqual({ total: 7, by_status: EVERY_STATUS_COUNTS });
      const all = await asAdmin.get('/activation-codes/statistics').expect(200);
      expect(all.body.total).toBeGreaterThanOrEqual(7);
      expect(Object.keys(all.body.by_status).sort()).toEqual([...STATUSES].sort());
      const none = await asAdmin
        .get(`/activation-codes/statistics?organisation_id=${MISSING_ID}`)
        .expect(200);
      expect(none.body.total).toBe(0);
      await asAdmin.get('/activation-codes/statistics?organisation_id=nope').expect(422);
    });
  });

  describe('GET /activation-codes', () => {
    it('pages newest first with an exact total; per_page 25 by default, capped silently at 100', async () => {
      const organization = await t.makeOrganization();
      const older = await generate(organization, 110);
      const newer = await generate(organization, 20);
      const first = await list(`organisation_id=${organization.id}`);
      expect(first.meta).toEqual({ total: 130, current_page: 1, per_page: 25, last_page: 6 });
      expect(first.data).toHaveLength(25);
      expect(first.data.slice(0, 20).every((code: Code) => code.batch_id === newer.id)).toBe(true);
      expect(first.data[20].batch_id).toBe(older.id);
      const newest = first.data.slice(0, 20).map((code: Code) => code.full_code);
      expect(newest).toEqual([...newest].sort());

      const capped = await list(`organisation_id=${organization.id}&per_page=500`);
      expect(capped.meta).toEqual({ total: 130, current_page: 1, per_page: 100, last_page: 2 });
      expect(capped.data).toHaveLength(100);
      const second = await list(`organisation_id=${organization.id}&per_page=100&page=2`);
      expect(second.data).toHaveLength(30);
      const ids = new Set([...capped.data, ...second.data].map((code: Code) => code.id));
      expect(ids.size).toBe(130);

      const beyond = await list(`organisation_id=${organization.id}&page=99`);
      expect(beyond).toEqual({
        data: [],
        meta: { total: 130, current_page: 99, per_page: 25, last_page: 6 },
      });
    });

    it('filters by expiration bounds, leaving out codes without expiration', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 2, { expires_at: '2030-01-15T00:00:00Z' });
      await generate(organization, 3, { expires_at: '2030-03-15T00:00:00Z' });
      await generate(organization, 4);
      const base = `organisation_id=${organization.id}`;
      expect((await list(`${base}`)).meta.total).toBe(9);
      expect((await list(`${base}&expires_from=2030-01-01T00:00:00Z`)).meta.total).toBe(5);
      expect((await list(`${base}&expires_from=2030-02-01T00:00:00Z`)).meta.total).toBe(3);
      expect((await list(`${base}&expires_to=2030-02-01T00:00:00Z`)).meta.total).toBe(2);
      expect((await list(`${base}&expires_to=2030-01-15T00:00:00Z`)).meta.total).toBe(2);
      expect(
        (await list(`${base}&expires_from=2030-01-01T00:00:00Z&expires_to=2030-12-31T23:59:59Z`)).meta.total,
      ).toBe(5);
      expect(
        (await list(`${base}&expires_from=${encodeURIComponent('2030-03-15T01:00:00+01:00')}`)).meta.total,
      ).toBe(3);
    });

    it('searches part of the code in any case, wildcards literally, blank ignored', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 5);
      const [code] = await codesOf(organization);
      const part = code.full_code.slice(3, 8); // e.g. "D-EFG"
      const found = await list(`search=${encodeURIComponent(part.toLowerCase())}`);
      expect(found.data.map((item: Code) => item.id)).toContain(code.id);
      for (const item of found.data) expect(item.full_code).toContain(part);
      expect(found.meta.total).toBe(found.data.length);

      const scoped = await list(
        `organisation_id=${organization.id}&search=${encodeURIComponent(code.full_code)}`,
      );
      expect(scoped.data.map((item: Code) => item.id)).toEqual([code.id]);
      expect((await list(`organisation_id=${organization.id}&search=%25`)).meta.total).toBe(0);
      expect((await list(`organisation_id=${organization.id}&search=_`)).meta.total).toBe(0);
      expect((await list(`organisation_id=${organization.id}&search=%20%20`)).meta.total).toBe(5);
      expect((await list(`organisation_id=${organization.id}&search=`)).meta.total).toBe(5);
    });

    it('combines the filters', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 3, { expires_at: '2030-01-15T00:00:00Z' });
      await generate(organization, 3);
      const codes = await codesOf(organization, '&expires_from=2030-01-01T00:00:00Z');
      await setStatus([codes[0].id, codes[1].id], 'cancelled').expect(200);
      const body = await list(
        `organisation_id=${organization.id}&status[]=cancelled&expires_to=2030-02-01T00:00:00Z&search=${encodeURIComponent(
          codes[0].full_code.slice(0, 6).toLowerCase(),
        )}`,
      );
      expect(body.data.map((code: Code) => code.id)).toEqual([codes[0].id]);
      expect(
        (await list(`organisation_id=${organization.id}&status[]=cancelled&status[]=in%20stock`)).meta.total,
      ).toBe(6);
      expect(
        (await list(`organisation_id=${organization.id}&status[]=in+stock&expires_from=2030-01-01T00:00:00Z`))
          .meta.total,
      ).toBe(1);
      expect((await list(`organisation_id=${MISSING_ID}`)).meta.total).toBe(0);
    });

    it.each([
      ['status[]=lost', 'status'],
      ['status[]=in_stock', 'status'],
      ['expires_from=2026-11-24', 'expires_from'],
      ['expires_to=2026-11-24T25:00:00Z', 'expires_to'],
      ['expires_to=tomorrow', 'expires_to'],
      ['per_page=0', 'per_page'],
      ['page=0', 'page'],
      [`search=${'A'.repeat(101)}`, 'search'],
      ['organisation_id=nope', 'organisation_id'],
    ])('refuses %s with 422 on %s', async (query, field) => {
      const res = await asAdmin.get(`/activation-codes?${query}`).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });
  });

  describe('GET /activation-codes/export', () => {
    const parseCsv = (text: string) => text.trimEnd().split('\r\n');
    /** `GET /activation-codes/export?<query>`, its streamed body read whole as text. */
    const exportCsv = (query: string) =>
      asAdmin
        .get(`/activation-codes/export?${query}`)
        .buffer(true)
        .parse((response, done) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => done(null, body));
        });

    it('streams the filtered codes as CSV with the columns, names and neutralised formulas', async () => {
      const organization = await t.makeOrganization({ name: '=HYPERLINK("http://evil","x")' });
      await generate(organization, 3, { expires_at: FUTURE });
      const [claimed] = await codesOf(organization);
      const traveller = await t.signedInUser();
      await claimAs(traveller, claimed.full_code).expect(200);
      const res = await exportCsv(`organisation_id[]=${organization.id}`).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="activation-codes-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = parseCsv(res.body as string);
      expect(lines[0]).toBe(
        'full_code,status,organisation_id,organisation_name,batch_number,purchased_at,used_at,expires_at,created_at',
      );
      expect(lines).toHaveLength(4);
      const line = lines.find((candidate) => candidate.startsWith(claimed.full_code))!;
      const name = `"'=HYPERLINK(""http://evil"",""x"")"`;
      expect(line).toMatch(
        new RegExp(
          `^${claimed.full_code},purchased,${organization.id},${name.replace(/[()."]/g, '\\$&')},1,\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,,2031-06-30T22:00:00\\.000Z,\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z$`,
        ),
      );
      const inStock = lines.filter((candidate) => candidate.includes(',in stock,'));
      expect(inStock).toHaveLength(2);
    });

    it('applies the filters, several organizations, and keeps the listing order', async () => {
      const a = await t.makeOrganization();
      const b = await t.makeOrganization();
      const c = await t.makeOrganization();
      await generate(a, 2);
      await generate(b, 3);
      await generate(c, 4);
      const fetchCsv = async (query: string) => parseCsv((await exportCsv(query).expect(200)).body as string);
      const two = await fetchCsv(`organisation_id[]=${a.id}&organisation_id[]=${b.id}`);
      expect(two).toHaveLength(1 + 5);
      const one = await fetchCsv(`organisation_id=${c.id}`);
      expect(one).toHaveLength(1 + 4);
      const listed = (await codesOf(c)).map((code) => code.full_code);
      expect(one.slice(1).map((row) => row.split(',')[0])).toEqual(listed);
      const cancelledOnly = await fetchCsv(`organisation_id[]=${c.id}&status[]=cancelled`);
      expect(cancelledOnly).toEqual([cancelledOnly[0]]);
      const searched = await fetchCsv(`organisation_id[]=${c.id}&search=${listed[0].slice(5, 9)}`);
      expect(searched.slice(1).map((row) => row.split(',')[0])).toContain(listed[0]);
    });

    it.each([
      [null, ''],
      ['plain', 'plain'],
      ['Alpine = fun', 'Alpine = fun'],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
      ['cr\rinside', '"cr\rinside"'],
      ['=1+1', "'=1+1"],
      ['+1', "'+1"],
      ['-1', "'-1"],
      ['@SUM(A1)', "'@SUM(A1)"],
      ['\tx', "'\tx"],
      ['\rx', `"'\rx"`],
      ['-1,5', `"'-1,5"`],
      ['=HYPERLINK("http://x","y")', `"'=HYPERLINK(""http://x"",""y"")"`],
      [' =1+1', "' =1+1"],
      ['\t\t-1', "'\t\t-1"],
      ['\u3000@SUM(A1)', "'\u3000@SUM(A1)"],
      ['\nAlpine', `"'\nAlpine"`],
      ['＝1+1', "'＝1+1"],
      ['＋1', "'＋1"],
      ['－1', "'－1"],
      ['＠SUM(A1)', "'＠SUM(A1)"],
      [' Alpine', ' Alpine'],
    ])(
      'writes the text cell %j as %j in PostgreSQL (quoted, formulas neutralised)',
      async (value, written) => {
        const [row] = (await t.dataSource.query(`SELECT ${csvCellSql('$1::text')} AS cell`, [value])) as {
          cell: string;
        }[];
        expect(row.cell).toBe(written);
      },
    );

    it('refuses bad filters with 422', async () => {
      await asAdmin.get('/activation-codes/export?organisation_id[]=nope').expect(422);
      await asAdmin.get('/activation-codes/export?status[]=lost').expect(422);
      await asAdmin.get('/activation-codes/export?expires_from=yesterday').expect(422);
    });
  });

  describe('PUT /activation-codes/status', () => {
    it('cancels codes in stock, purchased and expired; skips the others with their reason', async () => {
      const organization = await t.makeOrganization();
      const codes = await codesInEveryStatus(organization);
      const res = await setStatus(
        [
          codes.inStock.id,
          codes.purchased.id,
          codes.expired.id,
          codes.cancelled.id,
          codes.reimbursed.id,
          codes.used.id,
          MISSING_ID,
        ],
        'cancelled',
      ).expect(200);
      expect(res.body.updated.map((code: Code) => code.id).sort()).toEqual(
        [codes.inStock.id, codes.purchased.id, codes.expired.id].sort(),
      );
      for (const code of res.body.updated) {
        expect(code).toMatchObject({ status: 'cancelled', is_cancelled: true, is_reimbursed: false });
        expect(code.cancelled_at).toMatch(ISO_UTC);
      }
      expect(res.body.skipped).toEqual([
        { id: codes.cancelled.id, reason: 'already_cancelled' },
        { id: codes.reimbursed.id, reason: 'already_reimbursed' },
        { id: codes.used.id, reason: 'code_used' },
        { id: MISSING_ID, reason: 'not_found' },
      ]);
      expect((await historyOf(codes.expired.id)).at(-1)).toMatchObject({
        action: 'cancel',
        from_status: 'expired',
        to_status: 'cancelled',
        actor_user_id: admin.user.id,
      });
    });

    it('reimburses codes that were purchased (expired or cancelled included), setting both flags', async () => {
      const organization = await t.makeOrganization();
      const codes = await codesInEveryStatus(organization);
      // A purchased code cancelled later is still reimbursable.
      const traveller = await t.signedInUser();
      await generate(organization, 1);
      const [fresh] = await codesOf(organization);
      await claimAs(traveller, fresh.full_code).expect(200);
      await setStatus([fresh.id], 'cancelled').expect(200);
      const res = await setStatus(
        [
          codes.purchased.id,
          codes.expiredPurchased.id,
          fresh.id,
          codes.inStock.id,
          codes.expired.id,
          codes.cancelled.id,
          codes.reimbursed.id,
          codes.used.id,
        ],
        'reimbursed',
      ).expect(200);
      expect(res.body.updated.map((code: Code) => code.id).sort()).toEqual(
        [codes.purchased.id, codes.expiredPurchased.id, fresh.id].sort(),
      );
      for (const code of res.body.updated) {
        expect(code).toMatchObject({ status: 'reimbursed', is_reimbursed: true, is_cancelled: true });
      }
      expect(res.body.skipped).toEqual([
        { id: codes.inStock.id, reason: 'not_purchased' },
        { id: codes.expired.id, reason: 'not_purchased' },
        { id: codes.cancelled.id, reason: 'not_purchased' },
        { id: codes.reimbursed.id, reason: 'already_reimbursed' },
        { id: codes.used.id, reason: 'code_used' },
      ]);
      const freshHistory = await historyOf(fresh.id);
      expect(freshHistory.map((event) => event.action)).toEqual(['generate', 'claim', 'cancel', 'reimburse']);
      expect(freshHistory.at(-1)).toMatchObject({ from_status: 'cancelled', to_status: 'reimbursed' });
      // The cancellation time is kept.
      const [cancelledBefore] = res.body.updated.filter((code: Code) => code.id === fresh.id);
      expect(cancelledBefore.cancelled_at <= cancelledBefore.reimbursed_at).toBe(true);
    });

    it('renews purchased codes (expired or not): only expires_at changes', async () => {
      const organization = await t.makeOrganization();
      const codes = await codesInEveryStatus(organization);
      const before = new Map((await codesOf(organization)).map((code) => [code.id, code]));
      const res = await setStatus(
        [
          codes.purchased.id,
          codes.expiredPurchased.id,
          codes.inStock.id,
          codes.expired.id,
          codes.used.id,
          codes.cancelled.id,
          codes.reimbursed.id,
        ],
        'purchased',
        { new_expiration: FUTURE },
      ).expect(200);
      expect(res.body.updated.map((code: Code) => code.id).sort()).toEqual(
        [codes.purchased.id, codes.expiredPurchased.id].sort(),
      );
      for (const code of res.body.updated) {
        const { expires_at: _was, status: _status, is_expired: _expired, ...rest } = before.get(code.id)!;
        expect(code).toMatchObject({ ...rest, status: 'purchased', expires_at: '2031-06-30T22:00:00.000Z' });
      }
      expect(res.body.skipped).toEqual([
        { id: codes.inStock.id, reason: 'not_purchased' },
        { id: codes.expired.id, reason: 'not_purchased' },
        { id: codes.used.id, reason: 'code_used' },
        { id: codes.cancelled.id, reason: 'not_renewable' },
        { id: codes.reimbursed.id, reason: 'not_renewable' },
      ]);
      expect((await historyOf(codes.expiredPurchased.id)).at(-1)).toMatchObject({
        action: 'renew',
        from_status: 'expired',
        to_status: 'purchased',
        details: { to: '2031-06-30T22:00:00+00:00' },
      });
      // The same renewal again: answered as updated, no second move.
      const again = await setStatus([codes.purchased.id], 'purchased', { new_expiration: FUTURE }).expect(
        200,
      );
      expect(again.body.updated.map((code: Code) => code.id)).toEqual([codes.purchased.id]);
      const renewals = (await historyOf(codes.purchased.id)).filter((event) => event.action === 'renew');
      expect(renewals).toHaveLength(1);
    });

    it('counts a repeated id once', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 1);
      const [code] = await codesOf(organization);
      const res = await setStatus([code.id, code.id, code.id.toUpperCase()], 'cancelled').expect(200);
      expect(res.body.updated).toHaveLength(1);
      expect(res.body.skipped).toEqual([]);
    });

    it('moves each code once when the same call is sent twice at once', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 50);
      const ids = (await codesOf(organization)).map((code) => code.id);
      const [a, b] = await Promise.all([
        setStatus(ids, 'cancelled').expect(200),
        setStatus([...ids].reverse(), 'cancelled').expect(200),
      ]);
      expect(a.body.updated.length + b.body.updated.length).toBe(50);
      expect(a.body.skipped.length + b.body.skipped.length).toBe(50);
      for (const skipped of [...a.body.skipped, ...b.body.skipped])
        expect(skipped.reason).toBe('already_cancelled');
      const rows: { n: string }[] = await t.dataSource.query(
        `SELECT count(*) AS n FROM activation_code_events WHERE action = 'cancel' AND code_id = ANY($1::uuid[])`,
        [ids],
      );
      expect(Number(rows[0].n)).toBe(50);
    });

    it.each([
      [{ ids: [] }, { ids: ['The ids field must have at least 1 item.'] }],
      [{ ids: 'x' }, { ids: ['The ids field must be a list of UUIDs.'] }],
      [{ ids: undefined }, { ids: ['The ids field is required.'] }],
      [
        { status: 'in stock' },
        { status: ['The status field must be one of: cancelled, reimbursed, purchased.'] },
      ],
      [
        { status: 'purchased' },
        { new_expiration: ['The new expiration field is required when status is purchased.'] },
      ],
      [
        { status: 'cancelled', new_expiration: FUTURE },
        { new_expiration: ['The new expiration field is only accepted when status is purchased.'] },
      ],
      [
        { status: 'purchased', new_expiration: '2031-06-30' },
        { new_expiration: [expect.stringContaining('ISO 8601')] },
      ],
    ])('refuses %j with 422', async (body, errors) => {
      const res = await asAdmin
        .put('/activation-codes/status')
        .send({ ids: [MISSING_ID], status: 'cancelled', ...body })
        .expect(422);
      expect(res.body.errors).toEqual(errors);
    });

    it('refuses an item that is not a UUID under ids.<index>, and more than 1000 ids', async () => {
      const res = await setStatus([MISSING_ID, 'nope', MISSING_ID, '42'], 'cancelled').expect(422);
      expect(res.body.errors).toEqual({
        'ids.1': ['The ids.1 field must be a valid UUID.'],
        'ids.3': ['The ids.3 field must be a valid UUID.'],
      });
      const many = Array.from(
        { length: 1001 },
        (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      );
      const tooMany = await setStatus(many, 'cancelled').expect(422);
      expect(tooMany.body.errors).toEqual({ ids: ['The ids field must not have more than 1000 items.'] });
      const ok = await setStatus(many.slice(0, 1000), 'cancelled').expect(200);
      expect(ok.body.skipped).toHaveLength(1000);
    });
  });

  describe('POST /activation-codes/claim', () => {
    it('lets a traveller claim a code (any case, without dashes); the same user again is unchanged', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 1);
      const [code] = await codesOf(organization);
      const traveller = await t.signedInUser();
      const typed = code.full_code.replace(/-/g, '').toLowerCase();
      const res = await claimAs(traveller, typed).expect(200);
      expect(res.body).toMatchObject({ id: code.id, status: 'purchased', is_purchased: true });
      expect(res.body.purchased_at).toMatch(ISO_UTC);
      const again = await claimAs(traveller, ` ${code.full_code.replace(/-/g, ' ')} `).expect(200);
      expect(again.body).toEqual(res.body);
      const history = await historyOf(code.id);
      expect(history.map((event) => event.action)).toEqual(['generate', 'claim']);
      expect(history[1]).toMatchObject({
        from_status: 'in stock',
        to_status: 'purchased',
        actor_user_id: traveller.user.id,
      });
    });

    it('refuses a code claimed by someone else with reason already_claimed; one of two racing users wins', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 2);
      const [first, second] = await codesOf(organization);
      const alice = await t.signedInUser();
      const bob = await t.signedInUser();
      await claimAs(alice, first.full_code).expect(200);
      const res = await claimAs(bob, first.full_code).expect(422);
      expect(res.body).toEqual({
        message: 'This code is already claimed.',
        errors: { full_code: ['This code is already claimed.'] },
        reason: 'already_claimed',
      });
      const racing = await Promise.all([claimAs(alice, second.full_code), claimAs(bob, second.full_code)]);
      expect(racing.map((answer) => answer.status).sort()).toEqual([200, 422]);
      expect(racing.find((answer) => answer.status === 422)!.body.reason).toBe('already_claimed');
    });

    it('works under any hat the user holds, the organization and super-admin hats included', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 2);
      const [a, b] = await codesOf(organization);
      const member = await t.signedInUser();
      await t.addMember(organization, member.user);
      await claimAs(member, a.full_code, `organization:${organization.id}`).expect(200);
      await claimAs(admin, b.full_code, 'super-admin').expect(200);
      await claimAs(member, b.full_code, 'organization:00000000-0000-4000-8000-000000000001').expect(403);
    });

    it('refuses cancelled, reimbursed, expired and unknown codes', async () => {
      const organization = await t.makeOrganization();
      const codes = await codesInEveryStatus(organization);
      const someone = await t.signedInUser();
      const refused = async (fullCode: string, reason: string | undefined) => {
        const res = await claimAs(someone, fullCode).expect(422);
        expect(Object.keys(res.body.errors)).toEqual(['full_code']);
        expect(res.body.reason).toBe(reason);
      };
      await refused(codes.cancelled.full_code, 'code_cancelled');
      await refused(codes.reimbursed.full_code, 'code_reimbursed');
      await refused(codes.expired.full_code, 'code_expired');
      await refused(codes.purchased.full_code, 'already_claimed');
      await refused('2222-2222-2222', undefined);
      await refused('not a code', undefined);
      const empty = await claimAs(someone, '').expect(422);
      expect(empty.body.errors).toEqual({ full_code: ['The full code field is required.'] });
    });
  });

  describe('batches', () => {
    it('lists batches newest first with their counts, filtered by organization and number', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 3, { internal_note: 'first' });
      await generate(organization, 2);
      const res = await asAdmin
        .get(`/activation-codes/batches?organisation_id=${organization.id}`)
        .expect(200);
      expect(res.body.meta).toEqual({ total: 2, current_page: 1, per_page: 25, last_page: 1 });
      expect(res.body.data.map((batch: { batch_number: number }) => batch.batch_number)).toEqual([2, 1]);
      expect(res.body.data[1]).toMatchObject({
        internal_note: 'first',
        code_counts: { total: 3, 'in stock': 3 },
      });
      const numbered = await asAdmin
        .get(`/activation-codes/batches?organisation_id=${organization.id}&batch_number=1`)
        .expect(200);
      expect(numbered.body.data).toHaveLength(1);
      expect(numbered.body.data[0].internal_note).toBe('first');
      const capped = await asAdmin.get('/activation-codes/batches?per_page=1000').expect(200);
      expect(capped.body.meta.per_page).toBe(100);
      await asAdmin.get('/activation-codes/batches?batch_number=0').expect(422);
      await asAdmin.get('/activation-codes/batches?batch_number=x').expect(422);
      await asAdmin.get('/activation-codes/batches?organisation_id=x').expect(422);
    });

    it('PATCH changes the note and gives the expiration to unused codes, with history and fresh counts', async () => {
      const organization = await t.makeOrganization();
      const codes = await codesInEveryStatus(organization);
      const [batch] = (
        await asAdmin.get(`/activation-codes/batches?organisation_id=${organization.id}`).expect(200)
      ).body.data;
      expect(batch.code_counts).toEqual({ total: 7, ...EVERY_STATUS_COUNTS });
      const res = await asAdmin
        .patch(`/activation-codes/batches/${batch.id}`)
        .send({ internal_note: 'Renewed', expires_at: PAST })
        .expect(200);
      expect(res.body).toMatchObject({
        id: batch.id,
        internal_note: 'Renewed',
        expires_at: '2020-01-01T00:00:00.000Z',
        // The codes in stock and purchased expire with the batch.
        code_counts: { total: 7, ...EVERY_STATUS_COUNTS, expired: 4, purchased: 0, 'in stock': 0 },
      });
      const byId = new Map((await codesOf(organization)).map((code) => [code.id, code]));
      expect(byId.get(codes.used.id)!.expires_at).toBeNull();
      expect(byId.get(codes.cancelled.id)!.expires_at).toBe('2020-01-01T00:00:00.000Z');
      expect((await historyOf(codes.inStock.id)).at(-1)).toMatchObject({
        action: 'change_expiration',
        from_status: 'in stock',
        to_status: 'expired',
        details: { from: null, to: '2020-01-01T00:00:00+00:00', batch_id: batch.id },
      });
      expect((await historyOf(codes.used.id)).map((event) => event.action)).not.toContain(
        'change_expiration',
      );

      const back = await asAdmin
        .patch(`/activation-codes/batches/${batch.id}`)
        .send({ expires_at: null })
        .expect(200);
      expect(back.body).toMatchObject({ internal_note: 'Renewed', expires_at: null });
      // The codes that had expired before are back in stock or purchased.
      expect(back.body.code_counts).toMatchObject({ expired: 0, purchased: 2, 'in stock': 2 });
      const noteOnly = await asAdmin
        .patch(`/activation-codes/batches/${batch.id}`)
        .send({ internal_note: null })
        .expect(200);
      expect(noteOnly.body).toMatchObject({ internal_note: null, expires_at: null });
    });

    it('answers 404 for an unknown or malformed batch id, 422 for a bad body', async () => {
      await asAdmin.patch(`/activation-codes/batches/${MISSING_ID}`).send({ internal_note: 'x' }).expect(404);
      await asAdmin.patch(`/activation-codes/batches/${MISSING_ID}`).send({ expires_at: FUTURE }).expect(404);
      await asAdmin.patch('/activation-codes/batches/nope').send({ internal_note: 'x' }).expect(404);
      const organization = await t.makeOrganization();
      const batch = await generate(organization, 1);
      const res = await asAdmin
        .patch(`/activation-codes/batches/${batch.id}`)
        .send({ expires_at: 'soon' })
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['expires_at']);
    });
  });

  describe('GET /activation-codes/{id}', () => {
    it('answers the code with its history, newest last; 404 for unknown or malformed ids', async () => {
      const organization = await t.makeOrganization();
      await generate(organization, 1);
      const [code] = await codesOf(organization);
      await setStatus([code.id], 'cancelled').expect(200);
      const res = await asAdmin.get(`/activation-codes/${code.id}`).expect(200);
      expect(res.body).toMatchObject({
        ...code,
        status: 'cancelled',
        is_cancelled: true,
        cancelled_at: expect.any(String),
      });
      expect(res.body.history.map((event: { action: string }) => event.action)).toEqual([
        'generate',
        'cancel',
      ]);
      const res404 = await asAdmin.get(`/activation-codes/${MISSING_ID}`).expect(404);
      expect(res404.body.error).toBe('not_found');
      await asAdmin.get('/activation-codes/nope').expect(404);
    });
  });

  describe('access', () => {
    const superAdminRoutes: [string, string][] = [
      ['post', '/api/activation-codes/batches'],
      ['get', '/api/activation-codes'],
      ['get', '/api/activation-codes/export'],
      ['put', '/api/activation-codes/status'],
      ['get', '/api/activation-codes/batches'],
      ['patch', `/api/activation-codes/batches/${MISSING_ID}`],
      ['get', '/api/activation-codes/statistics'],
      ['get', `/api/activation-codes/${MISSING_ID}`],
    ];

    it.each(superAdminRoutes)(
      '%s %s is for super-admins only (403 forbidden, 401 without a token)',
      async (method, path) => {
        const user = await t.signedInUser();
        const call = (user.agent as unknown as Record<string, (path: string) => import('supertest').Test>)[
          method
        ](path);
        const res = await call.set('X-Viewing-As', 'traveller').send({}).expect(403);
        expect(res.body.error).toBe('forbidden');
        const asAdminUnderAnotherHat = (
          admin.agent as unknown as Record<string, (path: string) => import('supertest').Test>
        )[method](path);
        await asAdminUnderAnotherHat.set('X-Viewing-As', 'traveller').send({}).expect(403);
        const anonymous = (t.http as unknown as Record<string, (path: string) => import('supertest').Test>)[
          method
        ](path);
        await anonymous.set('X-Viewing-As', 'super-admin').send({}).expect(401);
      },
    );

    it('claim needs a token and a hat', async () => {
      await t.http.post('/api/activation-codes/claim').send({ full_code: '2222-2222-2222' }).expect(401);
      const user = await t.signedInUser();
      const res = await user.agent
        .post('/api/activation-codes/claim')
        .send({ full_code: '2222-2222-2222' })
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['x-viewing-as']);
    });
  });
});
