import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader } from '@nestjs/swagger';
import { AppError, ErrorCode } from '@rt/errors';
import {
  ApiForbiddenResponse,
  ApiUnauthenticatedResponse,
  ApiValidationFailedResponse,
} from '../common/api-responses';
import { ACCESS_POLICY, AccessPolicy, AccessRequest, AuthUser, ViewingContext } from './access';
import { HAT_PATTERN_SOURCE, HatKind } from './hat';

/**
 * Access rules of the routes, one decorator each (the AccessGuard enforces them, in the order of
 * docs/decisions.md D-23; these also write the rule into the contract). Every route of the contract carries
 * exactly one of them: the AccessPolicyAudit refuses to start otherwise.
 */
export const BEARER_SCHEME = 'bearer';

/** No sign-in. */
export const Public = () => SetMetadata(ACCESS_POLICY, { kind: 'public' } satisfies AccessPolicy);

/** A valid bearer token; no viewing hat. */
export const SignedIn = () =>
  applyDecorators(
    SetMetadata(ACCESS_POLICY, { kind: 'signed-in' } satisfies AccessPolicy),
    ApiBearerAuth(BEARER_SCHEME),
    ApiUnauthenticatedResponse(),
  );

/**
 * A valid token and an `X-Viewing-As` hat the user holds. Without arguments any hat will do;
 * otherwise only the kinds given (`@ViewingAs('organization')`); another held hat → 403 `forbidden`.
 */
export const ViewingAs = (...kinds: HatKind[]) => {
  const hats = kinds.length === 0 ? 'any' : kinds;
  const accepted =
    hats === 'any'
      ? 'Any hat the user holds.'
      : `Only ${hats.map((kind) => (kind === 'organization' ? '`organization:<id>`' : `\`${kind}\``)).join(' or ')}; another hat → 403 \`forbidden\`.`;
  return applyDecorators(
    SetMetadata(ACCESS_POLICY, { kind: 'hat', hats } satisfies AccessPolicy),
    ApiBearerAuth(BEARER_SCHEME),
    ApiHeader({
      name: 'X-Viewing-As',
      required: true,
      description:
        `The viewing context (hat): \`super-admin\`, \`organization:<organization id>\` or \`traveller\`. ${accepted} ` +
        'Missing or malformed → 422 under `x-viewing-as`; not held → 403 `hat_not_held`; ' +
        'an organization that is not approved → 403 `organization_not_approved`.',
      schema: { type: 'string', pattern: HAT_PATTERN_SOURCE, examples: ['super-admin'] },
    }),
    ApiUnauthenticatedResponse(),
    ApiForbiddenResponse(
      hats === 'any'
        ? ['hat_not_held', 'organization_not_approved']
        : ['hat_not_held', 'organization_not_approved', 'forbidden'],
    ),
    ApiValidationFailedResponse(),
  );
};

/** Super-admins only, wearing the `super-admin` hat (under another hat → 403 `forbidden`). */
export const SuperAdminOnly = () => ViewingAs('super-admin');

function accessRequestOf(context: ExecutionContext): AccessRequest {
  return context.switchToHttp().getRequest<AccessRequest>();
}

/** The signed-in user (routes under `@SignedIn` or `@ViewingAs`). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthUser => {
  const auth = accessRequestOf(context).auth;
  if (!auth) throw new AppError(ErrorCode.Unauthenticated);
  return auth.user;
});

/** The id of the token the request was signed with. */
export const CurrentTokenId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const auth = accessRequestOf(context).auth;
  if (!auth) throw new AppError(ErrorCode.Unauthenticated);
  return auth.tokenId;
});

/** The viewing context (routes under `@ViewingAs`). */
export const Viewing = createParamDecorator((_data: unknown, context: ExecutionContext): ViewingContext => {
  const viewing = accessRequestOf(context).viewing;
  if (!viewing) throw new Error('@Viewing() used on a route without @ViewingAs()');
  return viewing;
});
