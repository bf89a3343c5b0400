import type { ActingAs } from './factories';
import { createTestAppAsSuperAdmin, TestApp } from './test-app';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('activities and closures', () => {
  let t: TestApp;
  let asAdmin: ActingAs;
  let providerId: string;
  let otherProviderId: string;
  let tagA: string;
  let tagB: string;

  const createActivity = async (body: Record<string, unknown> = {}) =>
    (
      await asAdmin
        .post('/tour/activity')
        .send({ provider_id: providerId, name: 'Glacier hike', ...body })
        .expect(201)
    ).body as { id: string; capacity: number | null; unlimited: boolean; tags: string[] };

  beforeAll(async () => {
    ({ t, asAdmin } = await createTestAppAsSuperAdmin());
    providerId = (await asAdmin.post('/tour/provider').send({ name: 'Guides' }).expect(201)).body.id;
    otherProviderId = (await asAdmin.post('/tour/provider').send({ name: 'Boats' }).expect(201)).body.id;
    tagA = (
      await asAdmin
        .post('/tags')
        .send({ type: 'theme', names: { fr: 'A' }, icon: 'a' })
        .expect(201)
    ).body.id;
    tagB = (
      await asAdmin
        .post('/tags')
        .send({ type: 'restriction', names: { fr: 'B' }, icon: 'b' })
        .expect(201)
    ).body.id;
  });
  afterAll(() => t.close());

  describe('POST /tour/activity and /tour/activities', () => {
    it('creates an activity (both spellings) and reads it back', async () => {
      const res = await asAdmin
        .post('/tour/activity')
        .send({ provider_id: providerId, name: 'Glacier hike', tags: [tagA, tagB, tagA], capacity: 12 })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Glacier hike',
        provider_id: providerId,
        image_id: null,
        image: null,
        tags: [tagB, tagA], // registry order: restriction before theme
        capacity: 12,
        unlimited: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const second = await asAdmin
        .post('/tour/activities')
        .send({ provider_id: providerId, name: 'Boat trip', unlimited: true })
        .expect(201);
      expect(second.body).toMatchObject({ capacity: null, unlimited: true, tags: [] });
      expect((await asAdmin.get(`/tour/activity/${res.body.id}`).expect(200)).body).toEqual(res.body);
    });

    it.each([
      [{ capacity: 5, unlimited: true }, 'capacity'],
      [{ capacity: -1 }, 'capacity'],
      [{ capacity: 1.5 }, 'capacity'],
      [{ capacity: '5' }, 'capacity'],
      [{ unlimited: 'yes' }, 'unlimited'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(256) }, 'name'],
      [{ provider_id: 'nope' }, 'provider_id'],
      [{ provider_id: UNKNOWN_ID }, 'provider_id'],
      [{ tags: [UNKNOWN_ID] }, 'tags.0'],
      [{ tags: ['x'] }, 'tags.0'],
      [{ tags: 'x' }, 'tags'],
      [{ image_id: UNKNOWN_ID }, 'image_id'],
      [{ image_id: 'nope' }, 'image_id'],
    ])('refuses %j with a 422 on %s', async (overrides, field) => {
      const res = await asAdmin
        .post('/tour/activity')
        .send({ provider_id: providerId, name: 'x', ...overrides })
        .expect(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('names every unknown tag by its index', async () => {
      const res = await asAdmin
        .post('/tour/activity')
        .send({
          provider_id: providerId,
          name: 'x',
          tags: [tagA, UNKNOWN_ID, tagB, UNKNOWN_ID.replace('0000-4', '0000-5')],
        })
        .expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['tags.1', 'tags.3']);
    });

    it('is for super-admins only', async () => {
      const traveller = await t.signedInUser();
      await traveller
        .as('traveller')
        .post('/tour/activity')
        .send({ provider_id: providerId, name: 'x' })
        .expect(403);
      await traveller.as('traveller').get('/tour/activities').expect(403);
    });
  });

  describe('PUT /tour/activity/{id}', () => {
    it('refuses unlimited alone on a numeric activity and changes nothing', async () => {
      const activity = await createActivity({ capacity: 8 });
      const res = await asAdmin
        .put(`/tour/activity/${activity.id}`)
        .send({ unlimited: true, name: 'Renamed' })
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['capacity']);
      const after = await asAdmin.get(`/tour/activity/${activity.id}`).expect(200);
      expect(after.body).toMatchObject({ capacity: 8, unlimited: false, name: 'Glacier hike' });
    });

    it('switches to unlimited with capacity null, and back with a capacity', async () => {
      const activity = await createActivity({ capacity: 8 });
      const unlimited = await asAdmin
        .put(`/tour/activity/${activity.id}`)
        .send({ capacity: null, unlimited: true })
        .expect(200);
      expect(unlimited.body).toMatchObject({ capacity: null, unlimited: true });
      await asAdmin.put(`/tour/activity/${activity.id}`).send({ capacity: 4 }).expect(422);
      await asAdmin.put(`/tour/activity/${activity.id}`).send({ capacity: 4, unlimited: true }).expect(422);
      const numeric = await asAdmin
        .put(`/tour/activity/${activity.id}`)
        .send({ capacity: 4, unlimited: false })
        .expect(200);
      expect(numeric.body).toMatchObject({ capacity: 4, unlimited: false });
      const unknown = await asAdmin.put(`/tour/activity/${activity.id}`).send({ capacity: null }).expect(200);
      expect(unknown.body).toMatchObject({ capacity: null, unlimited: false });
    });

    it('replaces tags as a whole, [] clears, absent keeps; image_id null detaches', async () => {
      const activity = await createActivity({ tags: [tagA] });
      const replaced = await asAdmin
        .put(`/tour/activity/${activity.id}`)
        .send({ tags: [tagB] })
        .expect(200);
      expect(replaced.body.tags).toEqual([tagB]);
      const kept = await asAdmin.put(`/tour/activity/${activity.id}`).send({ name: 'Other' }).expect(200);
      expect(kept.body.tags).toEqual([tagB]);
      const cleared = await asAdmin.put(`/tour/activity/${activity.id}`).send({ tags: [] }).expect(200);
      expect(cleared.body.tags).toEqual([]);
      const detached = await asAdmin
        .put(`/tour/activity/${activity.id}`)
        .send({ image_id: null })
        .expect(200);
      expect(detached.body).toMatchObject({ image_id: null, image: null });
      const moved = await asAdmin
        .put(`/tour/activity/${activity.id}`)
        .send({ provider_id: otherProviderId })
        .expect(200);
      expect(moved.body.provider_id).toBe(otherProviderId);
      const bad = await asAdmin
        .put(`/tour/activity/${activity.id}`)
        .send({ tags: [UNKNOWN_ID] })
        .expect(422);
      expect(Object.keys(bad.body.errors)).toEqual(['tags.0']);
      await asAdmin.put(`/tour/activity/${activity.id}`).send({ provider_id: UNKNOWN_ID }).expect(422);
      await asAdmin.put(`/tour/activity/${UNKNOWN_ID}`).send({ name: 'x' }).expect(404);
      await asAdmin.get(`/tour/activity/${UNKNOWN_ID}`).expect(404);
    });
  });

  describe('GET /tour/activities', () => {
    it('filters by name, provider and tags (any), by name, per_page capped at 100', async () => {
      const mark = `ac${Date.now().toString(36)}`;
      const provider = (await asAdmin.post('/tour/provider').send({ name: 'Solo' }).expect(201)).body.id;
      await createActivity({ provider_id: provider, name: `${mark} b`, tags: [tagA] });
      await createActivity({ provider_id: provider, name: `${mark} a`, tags: [tagB] });
      await createActivity({ provider_id: provider, name: `${mark} c` });
      const all = await asAdmin.get(`/tour/activities?search=${mark.toUpperCase()}&per_page=500`).expect(200);
      expect(all.body.data.map((a: { name: string }) => a.name)).toEqual([
        `${mark} a`,
        `${mark} b`,
        `${mark} c`,
      ]);
      expect(all.body.meta).toMatchObject({ total: 3, per_page: 100 });
      const byProvider = await asAdmin.get(`/tour/activities?provider_id=${provider}`).expect(200);
      expect(byProvider.body.meta.total).toBe(3);
      const byTag = await asAdmin
        .get(`/tour/activities?search=${mark}&tag_ids[]=${tagA}&tag_ids[]=${tagB}`)
        .expect(200);
      expect(byTag.body.meta.total).toBe(2);
      const oneTag = await asAdmin.get(`/tour/activities?search=${mark}&tag_ids[]=${tagA}`).expect(200);
      expect(oneTag.body.data.map((a: { name: string }) => a.name)).toEqual([`${mark} b`]);
      await asAdmin.get('/tour/activities?tag_ids[]=nope').expect(422);
      await asAdmin.get('/tour/activities?provider_id=nope').expect(422);
    });
  });

  describe('closures', () => {
    it('creates, lists by start and deletes closures', async () => {
      const activity = await createActivity();
      const path = `/tour/activity/${activity.id}/closures`;
      const later = await asAdmin
        .post(path)
        .send({ starts_on: '2026-12-24', ends_on: '2026-12-26', reason: 'Christmas' })
        .expect(201);
      expect(later.body).toEqual({
        id: expect.any(String),
        activity_id: activity.id,
        starts_on: '2026-12-24',
        ends_on: '2026-12-26',
        reason: 'Christmas',
        created_at: expect.any(String),
      });
      const single = await asAdmin
        .post(path)
        .send({ starts_on: '2026-07-01', ends_on: '2026-07-01' })
        .expect(201);
      expect(single.body.reason).toBeNull();
      const list = await asAdmin.get(path).expect(200);
      expect(list.body.map((c: { starts_on: string }) => c.starts_on)).toEqual(['2026-07-01', '2026-12-24']);
      await asAdmin.delete(`${path}/${single.body.id}`).expect(204);
      await asAdmin.delete(`${path}/${single.body.id}`).expect(404);
      expect((await asAdmin.get(path).expect(200)).body).toHaveLength(1);
    });

    it.each([
      [{ starts_on: '2026-12-26', ends_on: '2026-12-24' }, 'ends_on'],
      [{ starts_on: '2026-02-30', ends_on: '2026-03-01' }, 'starts_on'],
      [{ starts_on: '26-12-2026', ends_on: '2026-12-30' }, 'starts_on'],
      [{ starts_on: '2026-12-01' }, 'ends_on'],
      [{ starts_on: '2026-12-01', ends_on: '2026-12-02', reason: 'x'.repeat(1001) }, 'reason'],
    ])('refuses %j with a 422 on %s', async (body, field) => {
      const activity = await createActivity();
      const res = await asAdmin.post(`/tour/activity/${activity.id}/closures`).send(body).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('answers 404 for an unknown activity, 403 under another hat', async () => {
      const path = `/tour/activity/${UNKNOWN_ID}/closures`;
      await asAdmin.get(path).expect(404);
      await asAdmin.post(path).send({ starts_on: '2026-12-01', ends_on: '2026-12-02' }).expect(404);
      await asAdmin.delete(`${path}/${UNKNOWN_ID}`).expect(404);
      await asAdmin.get('/tour/activity/nope/closures').expect(404);
      const activity = await createActivity();
      const other = await createActivity();
      const closure = (
        await asAdmin
          .post(`/tour/activity/${activity.id}/closures`)
          .send({ starts_on: '2026-12-01', ends_on: '2026-12-02' })
      ).body;
      await asAdmin.delete(`/tour/activity/${other.id}/closures/${closure.id}`).expect(404);
      const traveller = await t.signedInUser();
      await traveller.as('traveller').get(`/tour/activity/${activity.id}/closures`).expect(403);
    });
  });
});
