import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { Organization } from '../src/organizations/organization.entity';
import type { ActingAs, SignedIn } from './factories';
import { createTestAppAsSuperAdmin, TestApp } from './test-app';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface Step {
  id: string;
  position: number;
  day_number: number | null;
  time: string | null;
  name: string | null;
  activities: { id: string; priority: number; provider_id: string; name: string }[];
}

describe('tours and steps', () => {
  let t: TestApp;
  let admin: SignedIn;
  let asAdmin: ActingAs;
  let partner: Organization;
  let region: Organization;
  let otherRegion: Organization;
  let providerId: string;
  const activity: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

  const tourBody = (overrides: Record<string, unknown> = {}) => ({
    name: 'Alps loop',
    color: '#1A2B3C',
    partner_organization_id: partner.id,
    ...overrides,
  });
  const createTour = async (overrides: Record<string, unknown> = {}) =>
    (await asAdmin.post('/tour').send(tourBody(overrides)).expect(201)).body as { id: string };
  const addStep = async (tourId: string, body: Record<string, unknown> = {}) =>
    (await asAdmin.post(`/tour/${tourId}/steps`).send(body).expect(201)).body as Step;

  beforeAll(async () => {
    ({ t, admin, asAdmin } = await createTestAppAsSuperAdmin());
    partner = await t.makeOrganization({ type: 'reseller' });
    region = await t.makeOrganization({ type: 'region' });
    otherRegion = await t.makeOrganization({ type: 'region' });
    providerId = (await asAdmin.post('/tour/provider').send({ name: 'Guides' }).expect(201)).body.id;
    for (const key of ['a', 'b', 'c'] as const) {
      activity[key] = (
        await asAdmin
          .post('/tour/activity')
          .send({ provider_id: providerId, name: `Plan ${key.toUpperCase()}`, capacity: 10 })
          .expect(201)
      ).body.id;
    }
  });
  afterAll(() => t.close());

  describe('access', () => {
    it('refuses every tour endpoint under an organization or traveller hat (403 forbidden)', async () => {
      const tour = await createTour();
      const member = await t.signedInUser();
      await t.addMember(partner, member.user);
      for (const hat of [`organization:${partner.id}`, 'traveller']) {
        const who = member.as(hat);
        expect((await who.post('/tour').send(tourBody()).expect(403)).body.error).toBe('forbidden');
        expect((await who.delete(`/tour/${tour.id}`).expect(403)).body.error).toBe('forbidden');
        await who.get('/tour').expect(403);
        await who.get(`/tour/${tour.id}`).expect(403);
        await who.put(`/tour/${tour.id}`).send({ name: 'x' }).expect(403);
        await who.post(`/tour/${tour.id}/duplicate`).expect(403);
        await who.post(`/tour/${tour.id}/steps`).send({}).expect(403);
      }
      // A super-admin under another hat is refused too: the hat must be exactly super-admin.
      await admin.as('traveller').post('/tour').send(tourBody()).expect(403);
      await admin.as(`organization:${partner.id}`).delete(`/tour/${tour.id}`).expect(403);
      await asAdmin.get(`/tour/${tour.id}`).expect(200);
    });
  });

  describe('POST /tour', () => {
    it('creates a pending tour, with or without a region', async () => {
      const res = await asAdmin
        .post('/tour')
        .send(tourBody({ region_organization_id: region.id }))
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Alps loop',
        color: '#1A2B3C',
        status: 'pending',
        partner_organization_id: partner.id,
        region_organization_id: region.id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const plain = await asAdmin.post('/tour').send(tourBody()).expect(201);
      expect(plain.body.region_organization_id).toBeNull();
    });

    it.each([
      [{ status: 'active' }, 'status'],
      [{ status: 'pending' }, 'status'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ color: 'red' }, 'color'],
      [{ color: '#12345' }, 'color'],
      [{ color: '#12345G' }, 'color'],
      [{ partner_organization_id: 'nope' }, 'partner_organization_id'],
      [{ partner_organization_id: UNKNOWN_ID }, 'partner_organization_id'],
      [{ region_organization_id: UNKNOWN_ID }, 'region_organization_id'],
    ])('refuses %j with a 422 on %s', async (overrides, field) => {
      const res = await asAdmin.post('/tour').send(tourBody(overrides)).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('refuses a region that is not of type region', async () => {
      const res = await asAdmin
        .post('/tour')
        .send(tourBody({ region_organization_id: partner.id }))
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['region_organization_id']);
    });

    it('accepts a name of 255 characters and a lower-case color', async () => {
      await asAdmin
        .post('/tour')
        .send(tourBody({ name: 'x'.repeat(255), color: '#abcdef' }))
        .expect(201);
    });
  });

  describe('GET /tour', () => {
    it('filters by name (any case), status[] and partner, newest first, without steps', async () => {
      const mark = `tr${Date.now().toString(36)}`;
      const otherPartner = await t.makeOrganization();
      const first = await createTour({ name: `${mark} First` });
      const second = await createTour({ name: `${mark} Second`, partner_organization_id: otherPartner.id });
      await asAdmin.put(`/tour/${second.id}`).send({ status: 'active' }).expect(200);
      await addStep(first.id);
      const all = await asAdmin.get(`/tour?search=${mark.toUpperCase()}`).expect(200);
      expect(all.body.data.map((tour: { id: string }) => tour.id)).toEqual([second.id, first.id]);
      expect(all.body.data[0]).not.toHaveProperty('steps');
      const active = await asAdmin.get(`/tour?search=${mark}&status[]=active&status[]=archived`).expect(200);
      expect(active.body.data.map((tour: { id: string }) => tour.id)).toEqual([second.id]);
      const byPartner = await asAdmin
        .get(`/tour?search=${mark}&partner_organization_id=${otherPartner.id}`)
        .expect(200);
      expect(byPartner.body.meta.total).toBe(1);
      const capped = await asAdmin.get('/tour?per_page=1000').expect(200);
      expect(capped.body.meta.per_page).toBe(100);
      await asAdmin.get('/tour?status[]=closed').expect(422);
      await asAdmin.get('/tour?partner_organization_id=nope').expect(422);
    });
  });

  describe('PUT /tour/{id}', () => {
    it('keeps the region link when absent, clears it with null, changes the status', async () => {
      const tour = await createTour({ region_organization_id: region.id });
      const renamed = await asAdmin.put(`/tour/${tour.id}`).send({ name: 'Renamed' }).expect(200);
      expect(renamed.body).toMatchObject({
        name: 'Renamed',
        region_organization_id: region.id,
        status: 'pending',
      });
      const moved = await asAdmin
        .put(`/tour/${tour.id}`)
        .send({ region_organization_id: otherRegion.id })
        .expect(200);
      expect(moved.body.region_organization_id).toBe(otherRegion.id);
      const cleared = await asAdmin
        .put(`/tour/${tour.id}`)
        .send({ region_organization_id: null })
        .expect(200);
      expect(cleared.body.region_organization_id).toBeNull();
      for (const status of ['active', 'archived', 'pending']) {
        expect((await asAdmin.put(`/tour/${tour.id}`).send({ status }).expect(200)).body.status).toBe(status);
      }
      await asAdmin.put(`/tour/${tour.id}`).send({ status: 'closed' }).expect(422);
      await asAdmin.put(`/tour/${tour.id}`).send({ color: 'blue' }).expect(422);
      await asAdmin.put(`/tour/${tour.id}`).send({ name: 'Alps\u2028loop' }).expect(422);
      await asAdmin.put(`/tour/${tour.id}`).send({ region_organization_id: partner.id }).expect(422);
      await asAdmin.put(`/tour/${tour.id}`).send({ partner_organization_id: UNKNOWN_ID }).expect(422);
      await asAdmin.put(`/tour/${UNKNOWN_ID}`).send({ name: 'x' }).expect(404);
    });
  });

  describe('malformed path ids', () => {
    const notFound = (message: string) => ({ message, error: 'not_found' });

    it("answer the feature's own 404 once the body is valid, and the body's 422 before", async () => {
      expect((await asAdmin.put('/tour/nope').send({ name: 'x' }).expect(404)).body).toEqual(
        notFound('Tour not found.'),
      );
      const badBody = await asAdmin.put('/tour/nope').send({ color: 'blue' }).expect(422);
      expect(Object.keys(badBody.body.errors)).toEqual(['color']);
      await asAdmin.post('/tour/nope/steps').send({ time: '9:00' }).expect(422);
      expect((await asAdmin.post('/tour/nope/steps').send({}).expect(404)).body).toEqual(
        notFound('Tour not found.'),
      );
    });

    it('check a step id after its tour', async () => {
      const tour = await createTour();
      expect((await asAdmin.get(`/tour/${UNKNOWN_ID}/steps/nope`).expect(404)).body).toEqual(
        notFound('Tour not found.'),
      );
      expect((await asAdmin.get(`/tour/${tour.id}/steps/nope`).expect(404)).body).toEqual(
        notFound('Step not found.'),
      );
      await asAdmin.delete(`/tour/nope/steps/nope`).expect(404);
    });
  });

  describe('steps', () => {
    it('creates dated and undated steps; time HH:MM in, HH:MM:SS out; name is plan A', async () => {
      const tour = await createTour();
      const dated = await asAdmin
        .post(`/tour/${tour.id}/steps`)
        .send({ day_number: 1, time: '09:30', activity_ids: [activity.b, activity.a], name: 'Ignored' })
        .expect(201);
      expect(dated.body).toEqual({
        id: expect.any(String),
        tour_id: tour.id,
        position: 1,
        day_number: 1,
        time: '09:30:00',
        name: 'Plan B',
        activities: [
          expect.objectContaining({ id: activity.b, priority: 1, provider_id: providerId, name: 'Plan B' }),
          expect.objectContaining({ id: activity.a, priority: 2, provider_id: providerId }),
        ],
      });
      expect(dated.body.activities[0]).not.toHaveProperty('effective_provider');
      const undated = await addStep(tour.id, { day_number: null, time: '00:00' });
      expect(undated).toMatchObject({
        position: 2,
        day_number: null,
        time: '00:00:00',
        name: null,
        activities: [],
      });
      const bare = await addStep(tour.id);
      expect(bare).toMatchObject({ position: 3, day_number: null, time: null });
      const late = await addStep(tour.id, { time: '23:59' });
      expect(late.time).toBe('23:59:00');
      const details = await asAdmin.get(`/tour/${tour.id}`).expect(200);
      expect(details.body.steps.map((s: Step) => s.id)).toEqual([
        dated.body.id,
        undated.id,
        bare.id,
        late.id,
      ]);
      expect(details.body.steps[0].activities.map((a: { priority: number }) => a.priority)).toEqual([1, 2]);
      expect((await asAdmin.get(`/tour/${tour.id}/steps/${dated.body.id}`).expect(200)).body).toEqual(
        dated.body,
      );
    });

    it.each([
      [{ time: '9:30' }, 'time'],
      [{ time: '0930' }, 'time'],
      [{ time: '25:00' }, 'time'],
      [{ time: '09:30:00' }, 'time'],
      [{ time: '12:60' }, 'time'],
      [{ day_number: 0 }, 'day_number'],
      [{ day_number: 1.5 }, 'day_number'],
      [{ day_number: '2' }, 'day_number'],
      [{ activity_ids: 'x' }, 'activity_ids'],
      [{ activity_ids: ['nope'] }, 'activity_ids.0'],
    ])('refuses %j with a 422 on %s', async (body, field) => {
      const tour = await createTour();
      const res = await asAdmin.post(`/tour/${tour.id}/steps`).send(body).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('refuses unknown and repeated activity ids by index', async () => {
      const tour = await createTour();
      const unknown = await asAdmin
        .post(`/tour/${tour.id}/steps`)
        .send({ activity_ids: [activity.a, UNKNOWN_ID] })
        .expect(422);
      expect(Object.keys(unknown.body.errors)).toEqual(['activity_ids.1']);
      const repeated = await asAdmin
        .post(`/tour/${tour.id}/steps`)
        .send({ activity_ids: [activity.a, activity.b, activity.a] })
        .expect(422);
      expect(Object.keys(repeated.body.errors)).toEqual(['activity_ids.2']);
      expect((await asAdmin.get(`/tour/${tour.id}`).expect(200)).body.steps).toEqual([]);
      await asAdmin.post(`/tour/${UNKNOWN_ID}/steps`).send({}).expect(404);
    });

    it('updates: omitted activity_ids keeps the plans, [] clears them, a list replaces them', async () => {
      const tour = await createTour();
      const step = await addStep(tour.id, {
        day_number: 2,
        time: '08:00',
        activity_ids: [activity.a, activity.b],
      });
      const timeOnly = await asAdmin
        .put(`/tour/${tour.id}/steps/${step.id}`)
        .send({ time: '10:15' })
        .expect(200);
      expect(timeOnly.body).toMatchObject({ time: '10:15:00', day_number: 2, name: 'Plan A' });
      expect(timeOnly.body.activities.map((a: { id: string }) => a.id)).toEqual([activity.a, activity.b]);
      const replaced = await asAdmin
        .put(`/tour/${tour.id}/steps/${step.id}`)
        .send({ activity_ids: [activity.c, activity.a] })
        .expect(200);
      expect(
        replaced.body.activities.map((a: { id: string; priority: number }) => [a.id, a.priority]),
      ).toEqual([
        [activity.c, 1],
        [activity.a, 2],
      ]);
      expect(replaced.body.name).toBe('Plan C');
      const cleared = await asAdmin
        .put(`/tour/${tour.id}/steps/${step.id}`)
        .send({ activity_ids: [], day_number: null, time: null })
        .expect(200);
      expect(cleared.body).toMatchObject({ activities: [], name: null, day_number: null, time: null });
      const bad = await asAdmin
        .put(`/tour/${tour.id}/steps/${step.id}`)
        .send({ activity_ids: [UNKNOWN_ID], time: '11:00' })
        .expect(422);
      expect(Object.keys(bad.body.errors)).toEqual(['activity_ids.0']);
      expect((await asAdmin.get(`/tour/${tour.id}/steps/${step.id}`).expect(200)).body.time).toBeNull();
      await asAdmin.put(`/tour/${tour.id}/steps/${step.id}`).send({ time: '9:00' }).expect(422);
      await asAdmin.put(`/tour/${tour.id}/steps/${UNKNOWN_ID}`).send({}).expect(404);
      const other = await createTour();
      await asAdmin.get(`/tour/${other.id}/steps/${step.id}`).expect(404);
    });

    it('deletes a step and closes the gap', async () => {
      const tour = await createTour();
      const [s1, s2, s3] = [await addStep(tour.id), await addStep(tour.id), await addStep(tour.id)];
      await asAdmin.delete(`/tour/${tour.id}/steps/${s2.id}`).expect(204);
      await asAdmin.delete(`/tour/${tour.id}/steps/${s2.id}`).expect(404);
      const steps = (await asAdmin.get(`/tour/${tour.id}`).expect(200)).body.steps as Step[];
      expect(steps.map((s) => [s.id, s.position])).toEqual([
        [s1.id, 1],
        [s3.id, 2],
      ]);
    });

    it('reorders with a permutation, refuses anything else', async () => {
      const tour = await createTour();
      const [s1, s2, s3] = [await addStep(tour.id), await addStep(tour.id), await addStep(tour.id)];
      const res = await asAdmin
        .put(`/tour/${tour.id}/steps/reorder`)
        .send({ step_ids: [s3.id, s1.id, s2.id] })
        .expect(200);
      expect(res.body.map((s: Step) => [s.id, s.position])).toEqual([
        [s3.id, 1],
        [s1.id, 2],
        [s2.id, 3],
      ]);
      const other = await createTour();
      const foreign = await addStep(other.id);
      for (const stepIds of [
        [s1.id, s2.id],
        [s1.id, s2.id, s3.id, s1.id],
        [s1.id, s1.id, s2.id],
        [s1.id, s2.id, foreign.id],
        [s1.id, s2.id, UNKNOWN_ID],
      ]) {
        const bad = await asAdmin
          .put(`/tour/${tour.id}/steps/reorder`)
          .send({ step_ids: stepIds })
          .expect(422);
        expect(Object.keys(bad.body.errors)).toEqual(['step_ids']);
      }
      await asAdmin.put(`/tour/${tour.id}/steps/reorder`).send({ step_ids: 'x' }).expect(422);
      const after = (await asAdmin.get(`/tour/${tour.id}`).expect(200)).body.steps as Step[];
      expect(after.map((s) => s.id)).toEqual([s3.id, s1.id, s2.id]);
      await asAdmin.put(`/tour/${UNKNOWN_ID}/steps/reorder`).send({ step_ids: [] }).expect(404);
    });
  });

  describe('DELETE /tour/{id} and duplicate', () => {
    it('duplicates a tour: pending, same region, steps copied with the same activity ids', async () => {
      const tour = await createTour({ region_organization_id: region.id });
      await asAdmin.put(`/tour/${tour.id}`).send({ status: 'active' }).expect(200);
      await addStep(tour.id, { day_number: 1, time: '09:00', activity_ids: [activity.a, activity.b] });
      await addStep(tour.id, { activity_ids: [activity.c] });
      const copy = await asAdmin.post(`/tour/${tour.id}/duplicate`).expect(201);
      const original = (await asAdmin.get(`/tour/${tour.id}`).expect(200)).body;
      expect(copy.body).toMatchObject({
        name: original.name,
        color: original.color,
        status: 'pending',
        region_organization_id: region.id,
        partner_organization_id: partner.id,
      });
      expect(copy.body.id).not.toBe(tour.id);
      const shape = (steps: Step[]) =>
        steps.map((s) => ({
          ...s,
          id: undefined,
          tour_id: undefined,
          activities: s.activities.map((a) => [a.id, a.priority]),
        }));
      expect(shape(copy.body.steps)).toEqual(shape(original.steps));
      expect(copy.body.steps[0].id).not.toBe(original.steps[0].id);
      await asAdmin.post(`/tour/${UNKNOWN_ID}/duplicate`).expect(404);
    });

    it('deletes a tour with its steps and links; the activities stay', async () => {
      const tour = await createTour();
      const step = await addStep(tour.id, { activity_ids: [activity.a] });
      await asAdmin.delete(`/tour/${tour.id}`).expect(204);
      await asAdmin.get(`/tour/${tour.id}`).expect(404);
      await asAdmin.delete(`/tour/${tour.id}`).expect(404);
      const left: { n: string }[] = await t.dataSource.query(
        'SELECT count(*) AS n FROM tour_step_activities WHERE step_id = $1',
        [step.id],
      );
      expect(Number(left[0].n)).toBe(0);
      await asAdmin.get(`/tour/activity/${activity.a}`).expect(200);
    });

    it('reads a tour in a fixed number of queries, whatever its number of steps', async () => {
      const statementsToRead = async (tourId: string) => {
        const spy = jest.spyOn(PostgresQueryRunner.prototype, 'query');
        try {
          await asAdmin.get(`/tour/${tourId}`).expect(200);
          // Leave out the access checks (token, hat): the same for every route.
          return spy.mock.calls.filter(([sql]) => /tour|activit/.test(String(sql))).length;
        } finally {
          spy.mockRestore();
        }
      };
      const small = await createTour();
      await addStep(small.id, { day_number: 1, activity_ids: [activity.a] });
      const large = await createTour();
      for (let i = 0; i < 8; i++) {
        await addStep(large.id, { day_number: i + 1, activity_ids: [activity.a, activity.b, activity.c] });
      }
      const few = await statementsToRead(small.id);
      expect(few).toBeGreaterThanOrEqual(2);
      expect(few).toBeLessThanOrEqual(3);
      expect(await statementsToRead(large.id)).toBe(few);
    });
  });
});
