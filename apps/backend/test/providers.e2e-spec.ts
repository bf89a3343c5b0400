import { haversineMeters } from '../src/providers/haversine';
import type { ActingAs } from './factories';
import { createTestAppAsSuperAdmin, TestApp } from './test-app';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const CITIES = {
  Geneva: { latitude: 46.2044, longitude: 6.1432 },
  Lausanne: { latitude: 46.5197, longitude: 6.6323 },
  Bern: { latitude: 46.948, longitude: 7.4474 },
  Zurich: { latitude: 47.3769, longitude: 8.5417 },
  Paris: { latitude: 48.8566, longitude: 2.3522 },
  Berlin: { latitude: 52.52, longitude: 13.405 },
  Reykjavik: { latitude: 64.1466, longitude: -21.9426 },
};
type City = keyof typeof CITIES;

interface ListItem {
  id: string;
  name: string;
  distance_meters: number | null;
}

describe('providers', () => {
  let t: TestApp;
  let asAdmin: ActingAs;
  const ids: Partial<Record<City, string>> = {};
  /** Names carry a marker so searches see only this file's providers. */
  const MARK = `pv${Date.now().toString(36)}`;

  beforeAll(async () => {
    ({ t, asAdmin } = await createTestAppAsSuperAdmin());
    for (const [city, point] of Object.entries(CITIES)) {
      const res = await asAdmin
        .post('/tour/provider')
        .send({ name: `${MARK} Guides of ${city}`, city, ...point })
        .expect(201);
      ids[city as City] = res.body.id;
    }
    // One without coordinates.
    await asAdmin
      .post('/tour/provider')
      .send({ name: `${MARK} Guides of Nowhere` })
      .expect(201);
  });
  afterAll(() => t.close());

  const near = (city: City, extra = '') =>
    asAdmin.get(
      `/tour/providers?search=${MARK}&latitude=${CITIES[city].latitude}&longitude=${CITIES[city].longitude}${extra}`,
    );

  describe('POST /tour/provider', () => {
    it('creates an on-the-fly draft provider with every field', async () => {
      const body = {
        name: 'Zermatt Mountain Guides',
        description: 'Guides since 1856.',
        address: 'Bahnhofstrasse 58',
        city: 'Zermatt',
        country: 'CH',
        latitude: 46.0207,
        longitude: 7.7491,
        website: 'https://example.com/guides',
        phone: '+41 27 966 24 60',
        email: 'guides@example.com',
        origin: 'catalog',
        status: 'published',
      };
      const res = await asAdmin.post('/tour/provider').send(body).expect(201);
      const { origin: _origin, status: _status, ...fields } = body;
      expect(res.body).toEqual({
        id: expect.any(String),
        ...fields,
        origin: 'on_the_fly',
        status: 'draft',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const read = await asAdmin.get(`/tour/provider/${res.body.id}`).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it.each([
      [{ name: '' }, 'name'],
      [{ name: 'x', latitude: 46.2 }, 'longitude'],
      [{ name: 'x', longitude: 6.1 }, 'latitude'],
      [{ name: 'x', latitude: 91, longitude: 6 }, 'latitude'],
      [{ name: 'x', latitude: 46, longitude: 181 }, 'longitude'],
      [{ name: 'x', latitude: '46', longitude: 6 }, 'latitude'],
      [{ name: 'x', website: 'not a url' }, 'website'],
      [{ name: 'x', email: 'nope' }, 'email'],
    ])('refuses %j with a 422 on %s', async (body, field) => {
      const res = await asAdmin.post('/tour/provider').send(body).expect(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('is for super-admins only', async () => {
      const traveller = await t.signedInUser();
      const res = await traveller.as('traveller').post('/tour/provider').send({ name: 'x' }).expect(403);
      expect(res.body.error).toBe('forbidden');
      await traveller.as('traveller').get('/tour/providers').expect(403);
    });
  });

  describe('PUT /tour/provider/{id}', () => {
    it('changes the fields sent, clears with null, keeps the origin', async () => {
      const created = (
        await asAdmin
          .post('/tour/provider')
          .send({ name: 'Lake boats', city: 'Montreux', latitude: 46.43, longitude: 6.91 })
          .expect(201)
      ).body;
      const res = await asAdmin
        .put(`/tour/provider/${created.id}`)
        .send({ status: 'published', city: null, origin: 'catalog' })
        .expect(200);
      expect(res.body).toMatchObject({
        name: 'Lake boats',
        city: null,
        status: 'published',
        origin: 'on_the_fly',
        latitude: 46.43,
      });
      const cleared = await asAdmin
        .put(`/tour/provider/${created.id}`)
        .send({ latitude: null, longitude: null })
        .expect(200);
      expect(cleared.body).toMatchObject({ latitude: null, longitude: null });
      await asAdmin.put(`/tour/provider/${created.id}`).send({ latitude: 46 }).expect(422);
      await asAdmin.put(`/tour/provider/${created.id}`).send({ latitude: null, longitude: 6 }).expect(422);
      await asAdmin.put(`/tour/provider/${created.id}`).send({ status: 'gone' }).expect(422);
      await asAdmin.put(`/tour/provider/${UNKNOWN_ID}`).send({ name: 'x' }).expect(404);
      await asAdmin.get(`/tour/provider/${UNKNOWN_ID}`).expect(404);
      await asAdmin.get('/tour/provider/nope').expect(404);
    });
  });

  describe('GET /tour/providers', () => {
    it('without a point: by name, distances null, providers without coordinates included', async () => {
      const res = await asAdmin.get(`/tour/providers?search=${MARK.toUpperCase()}`).expect(200);
      const names = res.body.data.map((p: ListItem) => p.name);
      expect(names).toEqual([...names].sort());
      expect(res.body.meta.total).toBe(Object.keys(CITIES).length + 1);
      expect(res.body.data.every((p: ListItem) => p.distance_meters === null)).toBe(true);
    });

    it('with a point: nearest first, integer metres, only providers with coordinates', async () => {
      const res = await near('Geneva').expect(200);
      const order = res.body.data.map((p: ListItem) => p.name.replace(`${MARK} Guides of `, ''));
      expect(order).toEqual(['Geneva', 'Lausanne', 'Bern', 'Zurich', 'Paris', 'Berlin', 'Reykjavik']);
      expect(res.body.meta.total).toBe(Object.keys(CITIES).length);
      expect(res.body.data[0].distance_meters).toBe(0);
      for (const item of res.body.data as ListItem[]) {
        expect(Number.isInteger(item.distance_meters)).toBe(true);
      }
    });

    it.each([
      ['Zurich', 'Geneva'],
      ['Paris', 'Berlin'],
      ['Geneva', 'Reykjavik'],
    ] as [City, City][])('gives the %s–%s distance within 0.5%% of the haversine one', async (from, to) => {
      const res = await near(from, '&per_page=100').expect(200);
      const item = (res.body.data as ListItem[]).find((p) => p.id === ids[to]);
      const expected = haversineMeters(CITIES[from], CITIES[to]);
      expect(Math.abs(item!.distance_meters! - expected) / expected).toBeLessThan(0.005);
    });

    it('pages in distance order', async () => {
      const first = await near('Zurich', '&per_page=2&page=1').expect(200);
      const second = await near('Zurich', '&per_page=2&page=2').expect(200);
      const distances = [...first.body.data, ...second.body.data].map((p: ListItem) => p.distance_meters!);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(first.body.meta).toMatchObject({ total: 7, per_page: 2, last_page: 4 });
      const capped = await near('Zurich', '&per_page=1000').expect(200);
      expect(capped.body.meta.per_page).toBe(100);
    });

    it.each([
      ['latitude=46.2', 'longitude'],
      ['longitude=6.1', 'latitude'],
      ['latitude=90.5&longitude=6', 'latitude'],
      ['latitude=46&longitude=-181', 'longitude'],
      ['latitude=abc&longitude=6', 'latitude'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ])('refuses %s with a 422 on %s', async (query, field) => {
      const res = await asAdmin.get(`/tour/providers?${query}`).expect(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('orders with the GiST index on ll_to_earth, not a sort of every provider', async () => {
      const plan: { 'QUERY PLAN': string }[] = await t.dataSource.query(
        `EXPLAIN SELECT id FROM providers p WHERE p.latitude IS NOT NULL
          ORDER BY ll_to_earth(p.latitude, p.longitude) <-> ll_to_earth(46.2, 6.1) LIMIT 25`,
      );
      // With a handful of rows the planner may prefer a sort; force the index to show it serves the order.
      const forced: { 'QUERY PLAN': string }[] = await t.dataSource.transaction(async (manager) => {
        await manager.query('SET LOCAL enable_seqscan = off');
        await manager.query('SET LOCAL enable_sort = off');
        return manager.query(
          `EXPLAIN SELECT id FROM providers p WHERE p.latitude IS NOT NULL
            ORDER BY ll_to_earth(p.latitude, p.longitude) <-> ll_to_earth(46.2, 6.1) LIMIT 25`,
        );
      });
      expect(plan.length).toBeGreaterThan(0);
      const text = forced.map((row) => row['QUERY PLAN']).join('\n');
      expect(text).toContain('providers_location_idx');
      expect(text).toMatch(/Order By: .*<->/);
    });
  });
});
