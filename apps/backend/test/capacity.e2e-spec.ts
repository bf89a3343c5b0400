import { zurichToday } from '@rt/platform';
import { addDays } from '../src/common/calendar-date';
import type { Organization } from '../src/organizations/organization.entity';
import type { SignedIn } from './factories';
import { createTestApp, TestApp } from './test-app';
import { MANY_CLAIMS_ENV, tripFixtures } from './trip-fixtures';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

type Exactness = 'exact' | 'partial' | 'unknown' | 'unlimited';
const m = (value: number | null, exactness: Exactness) => ({ value, exactness });
const exact = (value: number) => m(value, 'exact');
const partial = (value: number) => m(value, 'partial');
const UNKNOWN = m(null, 'unknown');
const UNLIMITED = m(null, 'unlimited');

/**
 * A region built through the API, its figures computed by hand. D = today + 10 (trips may start
 * on D and on the day before). Activities: A 10, B 5, C 8, N unknown (null), U unlimited, K 8
 * closed on D + 1 only (a one-day closure: both of its boundaries).
 *
 * - Exact:     day 1 [A, B] = 15, day 2 [C] = 8, one undated step → exact 8; trips on D: 3 + 1
 *              (and 5 on D − 1, which do not count for D) → max(4/15, 4/8) = exact 0.5.
 * - Partial:   day 1 [A, N] = partial 10, day 2 [B] = 5 → partial 5; trips on D: 2 →
 *              max(partial 0.2, exact 0.4) = partial 0.4.
 * - Unknown:   day 1 [N] → unknown; no trip → saturation unknown.
 * - Closed:    day 1 [A] = 10, day 2 [K] on D + 1 closed → exact 0 → exact 0; a trip of 1 on D →
 *              1/0 → saturation unlimited.
 * - Pending (not active) and a tour of another region: left out.
 * Region = 8 + partial 5 + unknown + 0 = partial 13; demand 4 + 2 + 1 = 7 → partial 7/13.
 *
 * Another region holds the Unlimited tour (day 1 [U], day 3 [U], a trip of 3 on D): unlimited,
 * saturation exact 0; the region: unlimited, exact 0.
 */
describe('GET /organizations/{id}/capacity', () => {
  let t: TestApp;
  let admin: SignedIn;
  let traveller: SignedIn;
  let f: ReturnType<typeof tripFixtures>;
  let region: Organization;
  let unlimitedRegion: Organization;
  let emptyRegion: Organization;
  let today: string;
  let D: string;
  const tour: Record<'exact' | 'partial' | 'unknown' | 'closed' | 'unlimited', string> = {
    exact: '',
    partial: '',
    unknown: '',
    closed: '',
    unlimited: '',
  };

  const capacityOf = (organizationId: string, query = '', who?: SignedIn, hat = 'super-admin') =>
    (who ?? admin).as(hat).get(`/organizations/${organizationId}/capacity${query}`);

  beforeAll(async () => {
    t = await createTestApp({ env: MANY_CLAIMS_ENV });
    admin = await t.signedInSuperAdmin();
    traveller = await t.signedInUser();
    f = tripFixtures(t, admin);
    today = zurichToday();
    D = addDays(today, 10);
    region = await t.makeOrganization({ type: 'region', name: 'Valais' });
    unlimitedRegion = await t.makeOrganization({ type: 'region' });
    emptyRegion = await t.makeOrganization({ type: 'region' });
    const otherRegion = await t.makeOrganization({ type: 'region' });

    const A = await f.activity({ capacity: 10 });
    const B = await f.activity({ capacity: 5 });
    const C = await f.activity({ capacity: 8 });
    const N = await f.activity({ capacity: null });
    const U = await f.activity({ unlimited: true });
    const K = await f.activity({ capacity: 8 });
    await f.closure(K, addDays(D, 1), addDays(D, 1));
    // A closure of C away from every evaluated day: no effect.
    await f.closure(C, addDays(D, 30), addDays(D, 31));

    tour.exact = await f.tour({
      name: 'A exact',
      region,
      steps: [
        { day_number: 1, activity_ids: [A, B] },
        { day_number: null, activity_ids: [N] },
        { day_number: 2, activity_ids: [C] },
      ],
    });
    tour.partial = await f.tour({
      name: 'B partial',
      region,
      steps: [
        { day_number: 1, activity_ids: [A, N] },
        { day_number: 2, activity_ids: [B] },
      ],
    });
    tour.unknown = await f.tour({ name: 'C unknown', region, steps: [{ day_number: 1, activity_ids: [N] }] });
    tour.closed = await f.tour({
      name: 'D closed',
      region,
      steps: [
        { day_number: 1, activity_ids: [A] },
        { day_number: 2, activity_ids: [K] },
      ],
    });
    tour.unlimited = await f.tour({
      name: 'Unlimited',
      region: unlimitedRegion,
      steps: [
        { day_number: 1, activity_ids: [U] },
        { day_number: 3, activity_ids: [U] },
      ],
    });
    await f.tour({
      name: 'Pending',
      region,
      status: 'pending',
      steps: [{ day_number: 1, activity_ids: [A] }],
    });
    await f.tour({ name: 'Elsewhere', region: otherRegion, steps: [{ day_number: 1, activity_ids: [A] }] });

    await f.trip(traveller, tour.exact, D, 3);
    await f.trip(traveller, tour.exact, D, 1);
    await f.trip(traveller, tour.exact, addDays(D, -1), 5);
    await f.trip(traveller, tour.partial, D, 2);
    await f.trip(traveller, tour.closed, D, 1);
    await f.trip(traveller, tour.unlimited, D, 3);
  });
  afterAll(() => t.close());

  const expectedOnD = () => ({
    organization_id: region.id,
    date: D,
    capacity: partial(13),
    saturation: partial(7 / 13),
    tours: [
      {
        tour_id: tour.exact,
        name: 'A exact',
        capacity: exact(8),
        saturation: exact(0.5),
        unplaceable_steps_count: 1,
      },
      {
        tour_id: tour.partial,
        name: 'B partial',
        capacity: partial(5),
        saturation: partial(0.4),
        unplaceable_steps_count: 0,
      },
      {
        tour_id: tour.unknown,
        name: 'C unknown',
        capacity: UNKNOWN,
        saturation: UNKNOWN,
        unplaceable_steps_count: 0,
      },
      {
        tour_id: tour.closed,
        name: 'D closed',
        capacity: exact(0),
        saturation: UNLIMITED,
        unplaceable_steps_count: 0,
      },
    ],
  });

  it('rolls the region up on a date: exact, partial, unknown, a closure, an undated step, demand of D only', async () => {
    const res = await capacityOf(region.id, `?date=${D}`).expect(200);
    expect(res.body).toEqual(expectedOnD());
  });

  it('sums an unlimited tour into an unlimited region whose saturation is exact 0', async () => {
    const res = await capacityOf(unlimitedRegion.id, `?date=${D}`).expect(200);
    expect(res.body).toEqual({
      organization_id: unlimitedRegion.id,
      date: D,
      capacity: UNLIMITED,
      saturation: exact(0),
      tours: [
        {
          tour_id: tour.unlimited,
          name: 'Unlimited',
          capacity: UNLIMITED,
          saturation: exact(0),
          unplaceable_steps_count: 0,
        },
      ],
    });
  });

  it('answers exact 0 for a region without active tours', async () => {
    const res = await capacityOf(emptyRegion.id, `?date=${D}`).expect(200);
    expect(res.body).toEqual({
      organization_id: emptyRegion.id,
      date: D,
      capacity: exact(0),
      saturation: exact(0),
      tours: [],
    });
  });

  it('counts the trips departing the day before on that day only, with the closure elsewhere', async () => {
    // D − 1: Exact: 15 on D − 1, 8 on D; 5 travellers → max(5/15, 5/8) = 0.625. Closed: K on D is
    // open → min(10, 8) = 8. Region 8 + partial 5 + unknown + 8 = partial 21; demand 5.
    const res = await capacityOf(region.id, `?date=${addDays(D, -1)}`).expect(200);
    expect(res.body.capacity).toEqual(partial(21));
    expect(res.body.saturation).toEqual(partial(5 / 21));
    expect(res.body.tours.map((entry: { saturation: unknown }) => entry.saturation)).toEqual([
      exact(0.625),
      partial(0),
      UNKNOWN,
      exact(0),
    ]);
    expect(res.body.tours[3].capacity).toEqual(exact(8));
  });

  it('answers one roll-up per date in the range form, the same as the one-day form', async () => {
    const from = addDays(D, -1);
    const to = addDays(D, 1);
    const res = await capacityOf(region.id, `?from=${from}&to=${to}`).expect(200);
    expect(res.body.organization_id).toBe(region.id);
    expect(res.body.from).toBe(from);
    expect(res.body.to).toBe(to);
    expect(res.body.days.map((day: { date: string }) => day.date)).toEqual([from, D, to]);
    expect(res.body.days[1]).toEqual(expectedOnD());
    for (const day of res.body.days) {
      expect(day).toEqual((await capacityOf(region.id, `?date=${day.date}`).expect(200)).body);
    }
    // D + 1: no trips; K on D + 2 is open again.
    expect(res.body.days[2].capacity).toEqual(partial(21));
    expect(res.body.days[2].saturation).toEqual(partial(0));
    const longest = await capacityOf(region.id, `?from=${today}&to=${addDays(today, 61)}`).expect(200);
    expect(longest.body.days).toHaveLength(62);
    expect(longest.body.days[10]).toEqual(expectedOnD());
    const single = await capacityOf(region.id, `?from=${D}&to=${D}`).expect(200);
    expect(single.body.days).toEqual([expectedOnD()]);
  });

  it('defaults to today in Europe/Zurich', async () => {
    await f.trip(traveller, tour.exact, today, 2);
    const res = await capacityOf(region.id).expect(200);
    expect(res.body.date).toBe(today);
    expect(res.body.tours[0]).toEqual({
      tour_id: tour.exact,
      name: 'A exact',
      capacity: exact(8),
      saturation: exact(0.25),
      unplaceable_steps_count: 1,
    });
    // Today K is open (its closure is on D + 1): the region is partial 21 as on D − 1.
    expect(res.body.capacity).toEqual(partial(21));
    expect(res.body.saturation).toEqual(partial(2 / 21));
  });

  it('answers 404 for an organization that is not a region or does not exist', async () => {
    const reseller = await t.makeOrganization({ type: 'reseller' });
    for (const id of [reseller.id, UNKNOWN_ID, 'nope']) {
      const res = await capacityOf(id, `?date=${D}`).expect(404);
      expect(res.body.error).toBe('not_found');
    }
  });

  it.each([
    ['?date=2026-02-30', 'date'],
    ['?date=tomorrow', 'date'],
    ['?date=2026-1-5', 'date'],
    ['?from=2026-13-01&to=2026-12-01', 'from'],
    ['?from=2026-12-01', 'to'],
    ['?to=2026-12-01', 'from'],
    ['?from=2026-12-02&to=2026-12-01', 'to'],
    ['?from=2026-12-01&to=2027-02-01', 'to'],
    ['?date=2026-12-01&from=2026-12-01&to=2026-12-02', 'date'],
  ])('answers 422 for %s on %s', async (query, field) => {
    const res = await capacityOf(region.id, query).expect(422);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it('is for the super-admin hat only', async () => {
    await capacityOf(region.id, '', traveller, 'traveller').expect(403);
    await capacityOf(region.id, '', admin, 'traveller').expect(403);
    await t.http.get(`/api/organizations/${region.id}/capacity`).expect(401);
  });

  it('leaves the organizations routes alone (GET /organizations/default)', async () => {
    await admin.agent.get('/api/organizations/default').expect(200);
    await f.asAdmin.get('/organizations?type=region').expect(200);
    await f.asAdmin.patch(`/organizations/${region.id}`).send({ description: 'Alps' }).expect(200);
  });
});
