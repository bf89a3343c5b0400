import { AppError } from '@rt/errors';
import type { AuthUser } from '../access/access';
import type { HatTarget } from '../organizations/organizations.repository';
import type { OrganizationsService } from '../organizations/organizations.service';
import { HatsService } from './hats.service';

const APPROVED = '00000000-0000-4000-8000-000000000001';
const PENDING = '00000000-0000-4000-8000-000000000002';
const FOREIGN = '00000000-0000-4000-8000-000000000003';
const MISSING = '00000000-0000-4000-8000-000000000009';

/** A hand-written fake: the member belongs to APPROVED (manager) and PENDING (member). */
class FakeOrganizations {
  calls = 0;
  async findHatTarget(organizationId: string, userId: string): Promise<HatTarget | null> {
    this.calls++;
    const member = userId === 'member';
    if (organizationId === APPROVED) return { status: 'approved', role: member ? 'manager' : null };
    if (organizationId === PENDING) return { status: 'pending', role: member ? 'member' : null };
    if (organizationId === FOREIGN) return { status: 'approved', role: null };
    return null;
  }
}

const member: AuthUser = { id: 'member', email: 'm@example.com', isSuperAdmin: false };
const admin: AuthUser = { id: 'admin', email: 'a@example.com', isSuperAdmin: true };

describe('HatsService.enter', () => {
  let organizations: FakeOrganizations;
  let hats: HatsService;
  beforeEach(() => {
    organizations = new FakeOrganizations();
    hats = new HatsService(organizations as unknown as OrganizationsService);
  });

  const outcome = (
    user: AuthUser,
    header: string | undefined,
    accepted: Parameters<HatsService['enter']>[2] = 'any',
  ) =>
    hats.enter(user, header, accepted).then(
      (context) => ({ ok: context }),
      (error: AppError) => ({ status: error.status, body: error.toBody() }),
    );

  it('refuses a missing or malformed header with 422 under x-viewing-as, without a query', async () => {
    await expect(outcome(member, undefined)).resolves.toMatchObject({
      status: 422,
      body: { errors: { 'x-viewing-as': [expect.any(String)] } },
    });
    await expect(outcome(member, 'organization:1')).resolves.toMatchObject({ status: 422 });
    expect(organizations.calls).toBe(0);
  });

  it('gives the traveller hat to everyone and super-admin to super-admins only', async () => {
    await expect(outcome(member, 'traveller')).resolves.toEqual({
      ok: { hat: { kind: 'traveller' }, user: member, organizationRole: null },
    });
    await expect(outcome(member, 'super-admin')).resolves.toMatchObject({
      status: 403,
      body: { error: 'hat_not_held' },
    });
    await expect(outcome(admin, 'super-admin')).resolves.toHaveProperty('ok');
  });

  it('checks membership, then approval, then the endpoint rule', async () => {
    await expect(outcome(member, `organization:${APPROVED}`)).resolves.toMatchObject({
      ok: { organizationRole: 'manager' },
    });
    await expect(outcome(member, `organization:${FOREIGN}`)).resolves.toMatchObject({
      body: { error: 'hat_not_held' },
    });
    await expect(outcome(member, `organization:${MISSING}`)).resolves.toMatchObject({
      body: { error: 'hat_not_held' },
    });
    await expect(outcome(member, `organization:${PENDING}`, ['super-admin'])).resolves.toMatchObject({
      body: { error: 'organization_not_approved' },
    });
    await expect(outcome(member, `organization:${APPROVED}`, ['super-admin'])).resolves.toMatchObject({
      status: 403,
      body: { error: 'forbidden' },
    });
    await expect(outcome(member, 'super-admin', ['organization'])).resolves.toMatchObject({
      body: { error: 'hat_not_held' },
    });
  });

  it('lets a super-admin wear any existing organization hat, approval still required', async () => {
    await expect(outcome(admin, `organization:${FOREIGN}`)).resolves.toMatchObject({
      ok: { organizationRole: null },
    });
    await expect(outcome(admin, `organization:${PENDING}`)).resolves.toMatchObject({
      body: { error: 'organization_not_approved' },
    });
    await expect(outcome(admin, `organization:${MISSING}`)).resolves.toMatchObject({
      body: { error: 'hat_not_held' },
    });
    await expect(outcome(admin, 'traveller', ['super-admin'])).resolves.toMatchObject({
      body: { error: 'forbidden' },
    });
  });
});
