import type { Organization } from '../src/organizations/organization.entity';
import type { SignedIn } from './factories';
import type { TestApp } from './test-app';

/** Claims are throttled per user and address: lifted for files that claim many codes. */
export const MANY_CLAIMS_ENV = { THROTTLE_CLAIM_LIMIT: '1000', THROTTLE_CLAIM_ADDRESS_LIMIT: '1000' };

export interface StepSpec {
  day_number: number | null;
  activity_ids: string[];
}

/**
 * Tours, activities, closures and claimed codes built through the HTTP API of their features
 * (as a super-admin), and trips started by travellers: the fixtures of the trips and capacity tests.
 */
export function tripFixtures(t: TestApp, admin: SignedIn) {
  const asAdmin = admin.as('super-admin');
  let partner: Organization | undefined;
  let providerId: string | undefined;
  let codeOrganization: Organization | undefined;

  const fixtures = {
    asAdmin,

    async activity(fields: {
      capacity?: number | null;
      unlimited?: boolean;
      name?: string;
    }): Promise<string> {
      providerId ??= (await asAdmin.post('/tour/provider').send({ name: 'Guides' }).expect(201)).body
        .id as string;
      return (
        await asAdmin
          .post('/tour/activity')
          .send({ provider_id: providerId, name: fields.name ?? 'Activity', ...fields })
          .expect(201)
      ).body.id as string;
    },

    async closure(activityId: string, startsOn: string, endsOn: string): Promise<void> {
      await asAdmin
        .post(`/tour/activity/${activityId}/closures`)
        .send({ starts_on: startsOn, ends_on: endsOn })
        .expect(201);
    },

    /** A tour with its steps in order, then moved to `status` (default `active`). */
    async tour(spec: {
      name: string;
      region: Organization | null;
      steps: StepSpec[];
      status?: 'pending' | 'active' | 'archived';
    }): Promise<string> {
      partner ??= await t.makeOrganization({ type: 'reseller' });
      const id = (
        await asAdmin
          .post('/tour')
          .send({
            name: spec.name,
            color: '#1A2B3C',
            partner_organization_id: partner.id,
            region_organization_id: spec.region?.id ?? null,
          })
          .expect(201)
      ).body.id as string;
      for (const step of spec.steps) await asAdmin.post(`/tour/${id}/steps`).send(step).expect(201);
      const status = spec.status ?? 'active';
      if (status !== 'pending') await asAdmin.put(`/tour/${id}`).send({ status }).expect(200);
      return id;
    },

    /** `count` new codes, not claimed (their ids). */
    async codes(count: number): Promise<{ id: string; full_code: string }[]> {
      codeOrganization ??= await t.makeOrganization({ type: 'reseller' });
      const batch = (
        await asAdmin
          .post('/activation-codes/batches')
          .send({ organisation_id: codeOrganization.id, count })
          .expect(201)
      ).body as { id: string };
      const page = await asAdmin
        .get(`/activation-codes?organisation_id=${codeOrganization.id}&per_page=100`)
        .expect(200);
      return (page.body.data as { id: string; full_code: string; batch_id: string }[]).filter(
        (code) => code.batch_id === batch.id,
      );
    },

    async claim(traveller: SignedIn, fullCode: string): Promise<void> {
      await traveller
        .as('traveller')
        .post('/activation-codes/claim')
        .send({ full_code: fullCode })
        .expect(200);
    },

    /** A new code claimed by the traveller (its id). */
    async claimedCode(traveller: SignedIn): Promise<string> {
      const [code] = await fixtures.codes(1);
      await fixtures.claim(traveller, code.full_code);
      return code.id;
    },

    startTrip(traveller: SignedIn, body: Record<string, unknown>, hat = 'traveller') {
      return traveller.as(hat).post('/trips').send(body);
    },

    /** A trip on a new claimed code (201 expected); the trip's body. */
    async trip(traveller: SignedIn, tourId: string, startsOn: string, travellers: number) {
      const code = await fixtures.claimedCode(traveller);
      return (
        await fixtures
          .startTrip(traveller, {
            activation_code_id: code,
            tour_id: tourId,
            starts_on: startsOn,
            travellers,
          })
          .expect(201)
      ).body as { id: string; ends_on: string };
    },
  };
  return fixtures;
}
