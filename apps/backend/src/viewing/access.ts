import type { Request } from 'express';
import type { MembershipRole } from '../organizations/membership.entity';
import type { Hat, HatKind } from './hat';

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
