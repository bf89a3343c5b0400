import { zurichToday } from '@rt/platform';
import { addDays } from '../src/common/calendar-date';
import type { Organization } from '../src/organizations/organization.entity';
import type { SignedIn } from './factories';
import { createTestApp, TestApp } from './test-app';
import { MANY_CLAIMS_ENV, tripFixtures } from './trip-fixtures';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Code {
  id: string;
  status: string;
  is_active: boolean;
  is_used: boolean;
  used_at: string | null;
}

describe('trips', () => {
  let t: TestApp;
  let admin: SignedIn;
  let traveller: SignedIn;
  let f: ReturnType<typeof tripFixtures>;
  let region: Organization;
  /** Active, steps on days 1, 3 and one undated: a trip ends on day 3. */
  let tourId: string;
  let today: string;

  beforeAll(async () => {
    t = await createTestApp({ env: MANY_CLAIMS_ENV });
    admin = await t.signedInSuperAdmin();
    traveller = await t.signedInUser();
    f = tripFixtures(t, admin);
    region = await t.makeOrganization({ type: 'region' });
    const activity = await f.activity({ capacity: 10 });
    tourId = await f.tour({
      name: 'Alps loop',
      region,
      steps: [
        { day_number: 1, activity_ids: [activity] },
        { day_number: null, activity_ids: [activity] },
        { day_number: 3, activity_ids: [activity] },
      ],
    });
    today = zurichToday();
  });
  afterAll(() => t.close());

  const codeOf = async (id: string) =>
    (await f.asAdmin.get(`/activation-codes/${id}`).expect(200)).body as Code & {
      history: {
        action: string;
        from_status: string;
        to_status: string;
        actor_user_id: string;
        details: unknown;
      }[];
    };
  const tripCount = async () => Number((await t.dataSource.query('SELECT count(*) FROM trips'))[0].count);

  describe('POST /trips', () => {
    it('starts a trip today: the code is used and active, its history records the start', async () => {
      const code = await f.claimedCode(traveller);
      const res = await f
        .startTrip(traveller, { activation_code_id: code, tour_id: tourId, starts_on: today, travellers: 2 })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        activation_code_id: code,
        tour_id: tourId,
        starts_on: today,
        ends_on: addDays(today, 2),
        travellers: 2,
        created_at: expect.stringMatching(ISO_UTC),
      });
      const after = await codeOf(code);
      expect(after).toMatchObject({
        status: 'active',
        is_active: true,
        is_used: true,
        used_at: expect.stringMatching(ISO_UTC),
      });
      expect(after.history.map((event) => event.action)).toEqual(['generate', 'claim', 'trip_start']);
      expect(after.history[2]).toMatchObject({
        from_status: 'purchased',
        to_status: 'active',
        actor_user_id: traveller.user.id,
        details: { trip_id: res.body.id, tour_id: tourId, starts_on: today, ends_on: addDays(today, 2) },
      });
      // The listing's status filter and the statistics use the same definition.
      const active = await f.asAdmin.get(`/activation-codes?status[]=active&per_page=100`).expect(200);
      expect(active.body.data.map((c: Code) => c.id)).toContain(code);
      const used = await f.asAdmin.get(`/activation-codes?status[]=used&per_page=100`).expect(200);
      expect(used.body.data.map((c: Code) => c.id)).not.toContain(code);
    });

    it('is used (not active) before a later departure, active while the trip runs, used after it', async () => {
      const code = await f.claimedCode(traveller);
      const trip = (
        await f
          .startTrip(traveller, {
            activation_code_id: code,
            tour_id: tourId,
            starts_on: addDays(today, 10),
            travellers: 1,
          })
          .expect(201)
      ).body;
      expect(trip.ends_on).toBe(addDays(today, 12));
      expect(await codeOf(code)).toMatchObject({ status: 'used', is_active: false, is_used: true });
      // Time travel: the window moved around today (its last day), then into the past.
      const setWindow = (startsOn: string, endsOn: string) =>
        t.dataSource.query(
          'UPDATE activation_codes SET trip_starts_on = $2, trip_ends_on = $3 WHERE id = $1',
          [code, startsOn, endsOn],
        );
      await setWindow(addDays(today, -2), today);
      expect(await codeOf(code)).toMatchObject({ status: 'active', is_active: true, is_used: true });
      await setWindow(addDays(today, -3), addDays(today, -1));
      expect(await codeOf(code)).toMatchObject({ status: 'used', is_active: false, is_used: true });
      const stats = await f.asAdmin.get('/activation-codes/statistics').expect(200);
      expect(stats.body.by_status.active).toBeGreaterThanOrEqual(1);
    });

    it('ends on the departure day for a tour without dated steps', async () => {
      const activity = await f.activity({ capacity: 3 });
      const undated = await f.tour({
        name: 'Undated',
        region,
        steps: [{ day_number: null, activity_ids: [activity] }],
      });
      const bare = await f.tour({ name: 'No steps', region: null, steps: [] });
      for (const id of [undated, bare]) {
        const trip = await f.trip(traveller, id, addDays(today, 1), 1);
        expect(trip.ends_on).toBe(addDays(today, 1));
      }
    });

    it('works under any hat the claimer holds', async () => {
      const organization = await t.makeOrganization();
      const member = await t.signedInUser();
      await t.addMember(organization, member.user);
      const code = await f.claimedCode(member);
      await f
        .startTrip(
          member,
          { activation_code_id: code, tour_id: tourId, starts_on: today, travellers: 1 },
          `organization:${organization.id}`,
        )
        .expect(201);
      const adminCode = await f.claimedCode(admin);
      await f
        .startTrip(
          admin,
          { activation_code_id: adminCode, tour_id: tourId, starts_on: today, travellers: 1 },
          'super-admin',
        )
        .expect(201);
    });

    describe('refusals (422 with a reason; nothing changes)', () => {
      const refused = async (
        who: SignedIn,
        body: Record<string, unknown>,
        field: string,
        reason: string | undefined,
      ) => {
        const before = await tripCount();
        const res = await f.startTrip(who, body).expect(422);
        expect(Object.keys(res.body.errors)).toEqual([field]);
        expect(res.body.reason).toBe(reason);
        expect(await tripCount()).toBe(before);
        return res;
      };
      const body = (code: string, overrides: Record<string, unknown> = {}) => ({
        activation_code_id: code,
        tour_id: tourId,
        starts_on: today,
        travellers: 2,
        ...overrides,
      });

      it('not_claimed: a code claimed by someone else, by nobody, or unknown', async () => {
        const other = await t.signedInUser();
        const theirs = await f.claimedCode(other);
        const res = await refused(traveller, body(theirs), 'activation_code_id', 'not_claimed');
        expect(res.body.errors.activation_code_id).toEqual(['You have not claimed this activation code.']);
        expect(await codeOf(theirs)).toMatchObject({ status: 'purchased', used_at: null });
        const [free] = await f.codes(1);
        await refused(traveller, body(free.id), 'activation_code_id', 'not_claimed');
        expect(await codeOf(free.id)).toMatchObject({ status: 'in stock', used_at: null });
        await refused(traveller, body(UNKNOWN_ID), 'activation_code_id', 'not_claimed');
      });

      it('code_cancelled, code_reimbursed, code_expired, code_used', async () => {
        const cancelled = await f.claimedCode(traveller);
        const reimbursed = await f.claimedCode(traveller);
        const expired = await f.claimedCode(traveller);
        const used = await f.claimedCode(traveller);
        await f.asAdmin
          .put('/activation-codes/status')
          .send({ ids: [cancelled], status: 'cancelled' })
          .expect(200);
        await f.asAdmin
          .put('/activation-codes/status')
          .send({ ids: [reimbursed], status: 'reimbursed' })
          .expect(200);
        await t.dataSource.query(
          `UPDATE activation_codes SET expires_at = now() - interval '1 day' WHERE id = $1`,
          [expired],
        );
        await f.startTrip(traveller, body(used)).expect(201);
        await refused(traveller, body(cancelled), 'activation_code_id', 'code_cancelled');
        await refused(traveller, body(reimbursed), 'activation_code_id', 'code_reimbursed');
        await refused(traveller, body(expired), 'activation_code_id', 'code_expired');
        const again = await refused(traveller, body(used), 'activation_code_id', 'code_used');
        expect(again.body.errors.activation_code_id).toEqual(['This code was already used for a trip.']);
        expect((await codeOf(cancelled)).history.map((event) => event.action)).toEqual([
          'generate',
          'claim',
          'cancel',
        ]);
        expect((await codeOf(used)).history.filter((event) => event.action === 'trip_start')).toHaveLength(1);
      });

      it('one of two trips started at once on the same code wins; the other is code_used', async () => {
        const code = await f.claimedCode(traveller);
        const answers = await Promise.all([
          f.startTrip(traveller, body(code)),
          f.startTrip(traveller, body(code)),
        ]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422]);
        expect(answers.find((answer) => answer.status === 422)!.body.reason).toBe('code_used');
      });

      it('tour_not_active: pending, archived or unknown tour; the code stays as it was', async () => {
        const pending = await f.tour({ name: 'Pending', region, steps: [], status: 'pending' });
        const archived = await f.tour({ name: 'Archived', region, steps: [], status: 'archived' });
        const code = await f.claimedCode(traveller);
        for (const id of [pending, archived, UNKNOWN_ID]) {
          const res = await refused(traveller, body(code, { tour_id: id }), 'tour_id', 'tour_not_active');
          expect(res.body.errors.tour_id).toEqual(['This tour is not open for trips.']);
        }
        expect(await codeOf(code)).toMatchObject({ status: 'purchased', used_at: null });
      });

      it('starts_in_past: a departure before today in Europe/Zurich', async () => {
        const code = await f.claimedCode(traveller);
        await refused(
          traveller,
          body(code, { starts_on: addDays(today, -1) }),
          'starts_on',
          'starts_in_past',
        );
        expect(await codeOf(code)).toMatchObject({ status: 'purchased', used_at: null });
      });

      it.each([
        [{ travellers: 0 }, 'travellers'],
        [{ travellers: 101 }, 'travellers'],
        [{ travellers: 1.5 }, 'travellers'],
        [{ travellers: '2' }, 'travellers'],
        [{ travellers: undefined }, 'travellers'],
        [{ starts_on: '2026-02-30' }, 'starts_on'],
        [{ starts_on: 'tomorrow' }, 'starts_on'],
        [{ starts_on: undefined }, 'starts_on'],
        [{ tour_id: 'nope' }, 'tour_id'],
        [{ activation_code_id: 'nope' }, 'activation_code_id'],
      ])('refuses %j on %s (no reason)', async (overrides, field) => {
        const code = await f.claimedCode(traveller);
        const res = await refused(traveller, body(code, overrides), field, undefined);
        expect(res.body.errors[field]).toHaveLength(1);
      });
    });

    it('needs a token and a hat', async () => {
      await t.http.post('/api/trips').send({}).expect(401);
      await traveller.agent.post('/api/trips').send({}).expect(422);
      await t.http.get('/api/trips').expect(401);
    });
  });

  describe('GET /trips and /trips/{id}', () => {
    it('shows a trip to its traveller under any hat and to the super-admin hat; to others it is absent', async () => {
      const trip = await f.trip(traveller, tourId, addDays(today, 3), 4);
      const mine = await traveller.as('traveller').get(`/trips/${trip.id}`).expect(200);
      expect(mine.body).toEqual(trip);
      const stranger = await t.signedInUser();
      const res = await stranger.as('traveller').get(`/trips/${trip.id}`).expect(404);
      expect(res.body.error).toBe('not_found');
      await admin.as('super-admin').get(`/trips/${trip.id}`).expect(200);
      // A super-admin under the traveller hat sees only their own trips.
      await admin.as('traveller').get(`/trips/${trip.id}`).expect(404);
      await traveller.as('traveller').get(`/trips/${UNKNOWN_ID}`).expect(404);
      await traveller.as('traveller').get('/trips/nope').expect(404);
    });

    it("lists the caller's own trips, newest first, paginated", async () => {
      const someone = await t.signedInUser();
      const first = await f.trip(someone, tourId, addDays(today, 1), 1);
      const second = await f.trip(someone, tourId, addDays(today, 2), 2);
      const third = await f.trip(someone, tourId, addDays(today, 3), 3);
      const all = await someone.as('traveller').get('/trips').expect(200);
      expect(all.body.data.map((trip: { id: string }) => trip.id)).toEqual([third.id, second.id, first.id]);
      expect(all.body.meta).toEqual({ total: 3, current_page: 1, per_page: 25, last_page: 1 });
      const page = await someone.as('traveller').get('/trips?per_page=2&page=2').expect(200);
      expect(page.body.data).toEqual([first]);
      expect(page.body.meta).toEqual({ total: 3, current_page: 2, per_page: 2, last_page: 2 });
      const nobody = await (await t.signedInUser()).as('traveller').get('/trips').expect(200);
      expect(nobody.body).toEqual({
        data: [],
        meta: { total: 0, current_page: 1, per_page: 25, last_page: 1 },
      });
      await someone.as('traveller').get('/trips?per_page=0').expect(422);
    });
  });
});
