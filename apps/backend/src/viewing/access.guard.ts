import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppError, ErrorCode } from '@rt/errors';
import { ACCESS_POLICY, AccessPolicy, AccessRequest } from '../access/access';
import { VIEWING_AS_HEADER } from '../access/hat';
import { bearerTokenOf } from '../access-tokens/access-token';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { HatsService } from './hats.service';

/**
 * The global guard behind `@Public`, `@SignedIn` and `@ViewingAs`: the token (401), then the
 * viewing context (HatsService). Guards run before pipes, so body validation (422) comes last.
 * Routes without a policy are the infrastructure routes outside the contract (health, metrics,
 * version); AccessPolicyAudit makes sure every contract route declares one.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: AccessTokensService,
    private readonly hats: HatsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!policy || policy.kind === 'public') return true;

    const request = context.switchToHttp().getRequest<AccessRequest>();
    const auth = await this.tokens.authenticate(bearerTokenOf(request.headers.authorization));
    if (!auth) {
      throw new AppError(ErrorCode.Unauthenticated, undefined, undefined, undefined, {
        'WWW-Authenticate': 'Bearer',
      });
    }
    request.auth = auth;
    if (policy.kind === 'hat') {
      request.viewing = await this.hats.enter(auth.user, request.headers[VIEWING_AS_HEADER], policy.hats);
    }
    return true;
  }
}
