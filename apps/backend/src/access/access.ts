import type { Request } from 'express';
import type { Hat, HatKind } from './hat';

/**
 * The access kit: what every feature needs to declare and read access, and nothing that depends
 * on a feature (it imports none, so any feature may import it). The types and constants here,
 * the route decorators (access.decorators.ts) and the hats (hat.ts). Enforcement, which needs the
 * sign-in tokens and the organizations, is in viewing/ (AccessGuard, HatsService, AccessPolicyAudit).
 */

/**
 * The roles of a membership (organizations/membership.entity.ts stores them); the viewing context
 * carries the user's role under an organization hat. The manager is the contact.
 */
export const MEMBERSHIP_ROLES = ['manager', 'member'] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

/** What a route needs, declared by the decorators of access.decorators.ts. */
export type AccessPolicy =
  | { kind: 'public' }
  /** A valid bearer token, no viewing hat (`/logout`, `GET|PUT /user`, `GET /organizations/default`). */
  | { kind: 'signed-in' }
  /** A valid token and a held hat; `hats` lists the kinds the endpoint accepts, or `any`. */
  | { kind: 'hat'; hats: HatKind[] | 'any' };

export const ACCESS_POLICY = 'rt:access-policy';

export interface AuthUser {
  id: string;
  email: string;
  isSuperAdmin: boolean;
}

export interface Authentication {
  user: AuthUser;
  tokenId: string;
}

export interface ViewingContext {
  hat: Hat;
  user: AuthUser;
  /** Under an organization hat: the user's role there (null for a super-admin who is not a member). */
  organizationRole: MembershipRole | null;
}

export interface AccessRequest extends Request {
  auth?: Authentication;
  viewing?: ViewingContext;
}
