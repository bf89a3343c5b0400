import { createBackendClient, isApiError, type ApiError, type BackendClient } from '@rt/client';
import { rejectionOf } from '@rt/testing';
import type { Organization } from '../src/organizations/organization.entity';
import type { SignedIn } from './factories';
import { createTestAppAsSuperAdmin, listenForClient, TestApp } from './test-app';
import { MANY_CLAIMS_ENV, tripFixtures } from './trip-fixtures';

/**
 * Dates the backend stores stay within 1900-01-01 to 2999-12-31, derived dates
 * included (a trip's last day), and a date outside answers a 422 on its field, never a 500;
 * filters take any calendar date (docs/decisions.md D-71).
 */
const failureOf = (call: Promise<unknown>): Promise<ApiError> => rejectionOf(call, isApiError);

/** The 422 envelope with exactly one message, under `field`, matching `message`. */
const expectRefusedOn = (error: ApiError, field: string, message: RegExp) => {
  expect(error.status).toBe(422);
  const errors = (error.body as { errors: Record<string, string[]> }).errors;
  expect(Object.keys(errors)).toEqual([field]);
  expect(errors[field]).toEqual([expect.stringMatching(message)]);
};

describe('dates out of the stored range', () => {
  let t: TestApp;
  let admin: SignedIn;
  let baseUrl: string;
  let asAdmin: BackendClient;
  let traveller: SignedIn;
  let asTraveller: BackendClient;
  let fixtures: ReturnType<typeof tripFixtures>;
  let region: Organization;
  let reseller: Organization;
  /** An active tour whose last dated step is day 5, in `region`. */
  let tourId: string;
  let activityId: string;

  beforeAll(async () => {
    ({ t, admin } = await createTestAppAsSuperAdmin({ env: MANY_CLAIMS_ENV }));
    baseUrl = await listenForClient(t);
    asAdmin = createBackendClient({ baseUrl, token: admin.token, hat: 'super-admin' });
    traveller = await t.signedInUser();
    asTraveller = createBackendClient({ baseUrl, token: traveller.token, hat: 'traveller' });
    fixtures = tripFixtures(t, admin);
    region = await t.makeOrganization({ type: 'region' });
    reseller = await t.makeOrganization({ type: 'reseller' });
    activityId = await fixtures.activity({ capacity: 10 });
    tourId = await fixtures.tour({
      name: 'Five days',
      region,
      steps: [
        { day_number: 1, activity_ids: [activityId] },
        { day_number: 5, activity_ids: [activityId] },
      ],
    });
  });
  afterAll(() => t.close());

  const startTrip = async (startsOn: string) =>
    asTraveller.POST('/trips', {
      body: {
        activation_code_id: await fixtures.claimedCode(traveller),
        tour_id: tourId,
        starts_on: startsOn,
        travellers: 2,
      },
    });

  describe('POST /trips', () => {
    it('refuses a departure on 9999-12-31 (its last day would pass year 9999) with a 422 on starts_on', async () => {
      expectRefusedOn(
        await failureOf(startTrip('9999-12-31')),
        'starts_on',
        /^The starts on field must be a date from 1900-01-01 to 2999-12-31\.$/,
      );
    });

    it('refuses a departure whose last day falls after 2999-12-31, and takes one ending on it', async () => {
      expectRefusedOn(
        await failureOf(startTrip('2999-12-28')),
        'starts_on',
        /^The starts on field must leave the trip's last day \(day 5\) on or before 2999-12-31\.$/,
      );
      const trip = await startTrip('2999-12-27');
      expect(trip).toMatchObject({ starts_on: '2999-12-27', ends_on: '2999-12-31' });
    });
  });

  describe('closures', () => {
    const close = (startsOn: string, endsOn: string) =>
      asAdmin.POST('/tour/activity/{activityId}/closures', {
        params: { path: { activityId } },
        body: { starts_on: startsOn, ends_on: endsOn },
      });

    it('refuses a closure starting before 1900 or ending after 2999 with a 422 on the field', async () => {
      expectRefusedOn(
        await failureOf(close('1899-12-31', '2027-01-01')),
        'starts_on',
        /^The starts on field must be a date from 1900-01-01 to 2999-12-31\.$/,
      );
      expectRefusedOn(
        await failureOf(close('2027-01-01', '9999-12-31')),
        'ends_on',
        /^The ends on field must be a date from 1900-01-01 to 2999-12-31\.$/,
      );
      const closure = await close('1900-01-01', '2999-12-31');
      expect(closure).toMatchObject({ starts_on: '1900-01-01', ends_on: '2999-12-31' });
    });
  });

  describe('activation-code expirations', () => {
    const RANGE_MESSAGE = /field must be a date-time from 1900-01-01T00:00:00Z to 2999-12-31T23:59:59Z\.$/;

    it('refuses a batch expiring outside the range, also by its offset, with a 422 on expires_at', async () => {
      for (const expiresAt of ['9999-12-31T23:59:59Z', '1899-12-31T23:59:59Z', '2999-12-31T23:59:59-01:00']) {
        expectRefusedOn(
          await failureOf(
            asAdmin.POST('/activation-codes/batches', {
              body: { organisation_id: reseller.id, count: 1, expires_at: expiresAt },
            }),
          ),
          'expires_at',
          RANGE_MESSAGE,
        );
      }
      const batch = await asAdmin.POST('/activation-codes/batches', {
        body: { organisation_id: reseller.id, count: 1, expires_at: '2999-12-31T23:59:59Z' },
      });
      expect(batch.expires_at).toBe('2999-12-31T23:59:59.000Z');
    });

    it('refuses a batch update and a renewal outside the range with a 422 on the field', async () => {
      const batch = await asAdmin.POST('/activation-codes/batches', {
        body: { organisation_id: reseller.id, count: 1 },
      });
      expectRefusedOn(
        await failureOf(
          asAdmin.PATCH('/activation-codes/batches/{id}', {
            params: { path: { id: batch.id } },
            body: { expires_at: '0100-01-01T00:00:00Z' },
          }),
        ),
        'expires_at',
        RANGE_MESSAGE,
      );
      const [code] = (
        await asAdmin.GET('/activation-codes', { params: { query: { organisation_id: reseller.id } } })
      ).data;
      expectRefusedOn(
        await failureOf(
          asAdmin.PUT('/activation-codes/status', {
            body: { ids: [code.id], status: 'purchased', new_expiration: '3000-01-01T00:00:00Z' },
          }),
        ),
        'new_expiration',
        RANGE_MESSAGE,
      );
    });
  });

  describe('filters take any calendar date', () => {
    it('answers the code listing with the extreme instants', async () => {
      const page = await asAdmin.GET('/activation-codes', {
        params: {
          query: { expires_from: '0001-01-01T00:00:00Z', expires_to: '9999-12-31T23:59:59Z' },
        },
      });
      expect(page.meta.total).toBeGreaterThanOrEqual(1);
    });

    it('answers the capacity of 0001-01-01 and of 9999-12-31, a day and a range', async () => {
      for (const date of ['0001-01-01', '9999-12-31', '2028-02-29']) {
        const day = await asAdmin.GET('/organizations/{id}/capacity', {
          params: { path: { id: region.id }, query: { date } },
        });
        expect(day).toMatchObject({ organization_id: region.id, date });
      }
      const range = await asAdmin.GET('/organizations/{id}/capacity', {
        params: { path: { id: region.id }, query: { from: '9999-12-30', to: '9999-12-31' } },
      });
      expect(range).toMatchObject({ from: '9999-12-30', to: '9999-12-31' });
      expect((range as { days: unknown[] }).days).toHaveLength(2);
    });
  });
});
