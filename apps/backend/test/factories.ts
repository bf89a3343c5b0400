import type { INestApplication } from '@nestjs/common';
import request, { type Test } from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { MembershipRole } from '../src/access/access';
import { AccessTokensService } from '../src/access-tokens/access-tokens.service';
import type {
  Organization,
  OrganizationStatus,
  OrganizationType,
} from '../src/organizations/organization.entity';
import { OrganizationsRepository } from '../src/organizations/organizations.repository';
import { PasswordHasher } from '../src/passwords/password-hasher';
import type { User } from '../src/users/user.entity';
import { NewUser, UsersRepository } from '../src/users/users.repository';

export const TEST_PASSWORD = 'correct horse battery staple';

export interface SignedIn {
  user: User;
  token: string;
  /** Sends `Authorization: Bearer <token>` on every request. */
  agent: TestAgent;
  /** The agent's requests under one `X-Viewing-As` hat: `admin.as('super-admin').get('/tour')`. */
  as(hat: string): ActingAs;
}

/** Requests of a signed-in user under one `X-Viewing-As` hat; paths are relative to `/api`. */
export interface ActingAs {
  get(path: string): Test;
  post(path: string): Test;
  put(path: string): Test;
  patch(path: string): Test;
  delete(path: string): Test;
}

function actingAs(agent: TestAgent, hat: string): ActingAs {
  return {
    get: (path) => agent.get(`/api${path}`).set('X-Viewing-As', hat),
    post: (path) => agent.post(`/api${path}`).set('X-Viewing-As', hat),
    put: (path) => agent.put(`/api${path}`).set('X-Viewing-As', hat),
    patch: (path) => agent.patch(`/api${path}`).set('X-Viewing-As', hat),
    delete: (path) => agent.delete(`/api${path}`).set('X-Viewing-As', hat),
  };
}

export interface Factories {
  makeUser(overrides?: Partial<NewUser> & { password?: string }): Promise<User>;
  makeOrganization(
    overrides?: Partial<{ name: string; type: OrganizationType; status: OrganizationStatus }>,
  ): Promise<Organization>;
  addMember(organization: Organization, user: User, role?: MembershipRole): Promise<void>;
  /** A token minted directly (no login round trip). */
  signIn(user: User): Promise<SignedIn>;
  signedInUser(overrides?: Partial<NewUser>): Promise<SignedIn>;
  signedInSuperAdmin(): Promise<SignedIn>;
}

let sequence = 0;
/** A suffix no other test has used (names, addresses). */
export const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

/** An address no other test has used: `<prefix>-<unique>@example.com`. */
export const uniqueEmail = (prefix = 'user') => `${prefix}-${unique()}@example.com`;

/** The body of a public signup (`POST /organizations/signup`) naming `contactEmail` as its contact. */
export const signUpBody = (contactEmail: string) => ({
  name: `Lake Tours ${unique()}`,
  contact_email: contactEmail,
  contact_first_name: 'Grace',
  contact_last_name: 'Hopper',
  preferred_language: 'en-gb' as const,
});

/** Factories insert through the repositories and services, never hand-written SQL. */
export function makeFactories(app: INestApplication): Factories {
  const users = app.get(UsersRepository);
  const organizations = app.get(OrganizationsRepository);
  const tokens = app.get(AccessTokensService);
  const hasher = app.get(PasswordHasher);
  const server = app.getHttpServer();
  let defaultHash: Promise<string> | undefined;

  const factories: Factories = {
    async makeUser(overrides = {}) {
      const { password, ...fields } = overrides;
      const passwordHash =
        fields.passwordHash !== undefined
          ? fields.passwordHash
          : password !== undefined
            ? await hasher.hash(password)
            : await (defaultHash ??= hasher.hash(TEST_PASSWORD));
      return users.create({
        email: `user-${unique()}@example.com`,
        passwordHash,
        firstName: 'Test',
        lastName: 'User',
        preferredLanguage: 'en-gb',
        isSuperAdmin: false,
        // An account with a password set it through a mailed link: its email is confirmed (D-70).
        emailConfirmed: passwordHash !== null,
        ...fields,
      });
    },
    makeOrganization(overrides = {}) {
      return organizations.create({
        name: `Org ${unique()}`,
        type: 'reseller',
        status: 'approved',
        ...overrides,
      });
    },
    addMember(organization, user, role = 'member') {
      return organizations.addMember(organization.id, user.id, role);
    },
    async signIn(user) {
      const token = await tokens.issue(user.id, 'test device');
      const agent = request.agent(server).set('Authorization', `Bearer ${token}`);
      return { user, token, agent, as: (hat) => actingAs(agent, hat) };
    },
    async signedInUser(overrides = {}) {
      return factories.signIn(await factories.makeUser(overrides));
    },
    async signedInSuperAdmin() {
      return factories.signIn(await factories.makeUser({ isSuperAdmin: true }));
    },
  };
  return factories;
}
