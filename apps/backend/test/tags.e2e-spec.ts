import type { ActingAs } from './factories';
import { createTestAppAsSuperAdmin, TestApp } from './test-app';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('tags', () => {
  let t: TestApp;
  let asAdmin: ActingAs;

  beforeAll(async () => {
    ({ t, asAdmin } = await createTestAppAsSuperAdmin());
  });
  afterAll(() => t.close());

  const tagBody = (overrides: Record<string, unknown> = {}) => ({
    type: 'theme',
    names: { fr: 'Randonnée', en: 'Hiking', de: 'Wandern' },
    icon: 'hiking-boot',
    ...overrides,
  });
  const createTag = async (overrides: Record<string, unknown> = {}) =>
    (await asAdmin.post('/tags').send(tagBody(overrides)).expect(201)).body as { id: string };

  it('creates a tag with its three names and reads it back in the registry', async () => {
    const res = await asAdmin
      .post('/tags')
      .send(tagBody({ names: { fr: 'Zzz unique' } }))
      .expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      type: 'theme',
      names: { fr: 'Zzz unique', en: null, de: null },
      icon: 'hiking-boot',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const list = await asAdmin.get('/tags?type=theme&per_page=1000').expect(200);
    expect(list.body.data.map((tag: { id: string }) => tag.id)).toContain(res.body.id);
  });

  it('lists for any signed-in hat, filtered by type, by type and French name, per_page capped at 1000', async () => {
    await createTag({ type: 'restriction', names: { fr: 'B restriction' }, icon: 'b' });
    await createTag({ type: 'restriction', names: { fr: 'A restriction' }, icon: 'a' });
    const traveller = await t.signedInUser();
    const res = await traveller.as('traveller').get('/tags?type=restriction&per_page=5000').expect(200);
    expect(res.body.meta).toMatchObject({ per_page: 1000, current_page: 1 });
    const names = res.body.data.map((tag: { names: { fr: string } }) => tag.names.fr);
    expect(names).toEqual([...names].sort());
    expect(res.body.data.every((tag: { type: string }) => tag.type === 'restriction')).toBe(true);
    await traveller.as('traveller').get('/tags?type=colour').expect(422);
    // The header is still required.
    await traveller.agent.get('/api/tags').expect(422);
  });

  it('refuses writes from another hat than super-admin', async () => {
    const traveller = await t.signedInUser();
    const res = await traveller.as('traveller').post('/tags').send(tagBody()).expect(403);
    expect(res.body.error).toBe('forbidden');
    const organization = await t.makeOrganization();
    const member = await t.signedInUser();
    await t.addMember(organization, member.user);
    await member.as(`organization:${organization.id}`).post('/tags').send(tagBody()).expect(403);
  });

  it.each([
    [{ type: 'colour' }, 'type'],
    [{ icon: 'Hiking Boot' }, 'icon'],
    [{ icon: 'boot_1' }, 'icon'],
    [{ icon: '' }, 'icon'],
    [{ names: { en: 'Hiking' } }, 'names.fr'],
    [{ names: { fr: '' } }, 'names.fr'],
    [{ names: { fr: 'x'.repeat(256) } }, 'names.fr'],
    [{ names: { fr: 'ok', de: 5 } }, 'names.de'],
    [{ names: { fr: 'Randonnée', en: 'Hik\u2028ing' } }, 'names.en'],
    [{ names: null }, 'names'],
    [{ names: 'Randonnée' }, 'names'],
  ])('refuses %j with a 422 on %s', async (overrides, field) => {
    const res = await asAdmin.post('/tags').send(tagBody(overrides)).expect(422);
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it('updates only the fields sent; names are replaced together', async () => {
    const tag = await createTag();
    const res = await asAdmin.put(`/tags/${tag.id}`).send({ icon: 'boot' }).expect(200);
    expect(res.body).toMatchObject({ icon: 'boot', type: 'theme', names: { fr: 'Randonnée', en: 'Hiking' } });
    const renamed = await asAdmin
      .put(`/tags/${tag.id}`)
      .send({ names: { fr: 'Marche' }, type: 'suitability' })
      .expect(200);
    expect(renamed.body).toMatchObject({ type: 'suitability', names: { fr: 'Marche', en: null, de: null } });
    await asAdmin.put(`/tags/${tag.id}`).send({ icon: 'NO' }).expect(422);
    await asAdmin
      .put(`/tags/${tag.id}`)
      .send({ names: { fr: 'Mar\u2029che' } })
      .expect(422);
    await asAdmin.put(`/tags/${UNKNOWN_ID}`).send({ icon: 'boot' }).expect(404);
    await asAdmin.put('/tags/not-a-uuid').send({ icon: 'boot' }).expect(404);
  });

  it('deletes a tag and detaches it from the activities that carried it', async () => {
    const kept = await createTag({ names: { fr: 'Gardé' }, icon: 'kept' });
    const gone = await createTag({ names: { fr: 'Supprimé' }, icon: 'gone' });
    const provider = (await asAdmin.post('/tour/provider').send({ name: 'Guides' }).expect(201)).body;
    const activity = (
      await asAdmin
        .post('/tour/activity')
        .send({ provider_id: provider.id, name: 'Walk', tags: [kept.id, gone.id] })
        .expect(201)
    ).body;
    expect(activity.tags).toHaveLength(2);
    await asAdmin.delete(`/tags/${gone.id}`).expect(204);
    const after = await asAdmin.get(`/tour/activity/${activity.id}`).expect(200);
    expect(after.body.tags).toEqual([kept.id]);
    await asAdmin.delete(`/tags/${gone.id}`).expect(404);
    const traveller = await t.signedInUser();
    await traveller.as('traveller').delete(`/tags/${kept.id}`).expect(403);
  });
});
