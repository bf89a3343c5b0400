import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import type { AccessRequest } from '../access/access';
import { countsEveryCall, emailFieldOf, RATE_LIMIT_POLICY, ThrottlePolicy } from './throttle-policies';
import { ThrottlingService } from './throttling.service';

/**
 * Runs before the body is validated. Under `login` it only refuses a blocked email and address
 * (or address), so a correct password is never counted nor kept waiting; the failures are counted
 * by the sign-in itself. Under the other policies it counts the call.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly throttling: ThrottlingService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const policy = this.reflector.get<ThrottlePolicy | undefined>(RATE_LIMIT_POLICY, context.getHandler());
    if (!policy) return true;
    const req = context.switchToHttp().getRequest<Request>();
    // `claim` counts per signed-in user (the AccessGuard, global, has run); the others per email.
    const email =
      policy === 'claim'
        ? (req as AccessRequest).auth?.user.id
        : (req.body as Record<string, unknown> | undefined)?.[emailFieldOf(policy)];
    if (countsEveryCall(policy)) await this.throttling.count(policy, email, req.ip);
    else await this.throttling.refuseIfBlocked(policy, email, req.ip);
    return true;
  }
}
