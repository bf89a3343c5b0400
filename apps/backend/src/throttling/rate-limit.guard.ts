import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import {
  changesEmail,
  COUNTED_CALLS,
  RATE_LIMIT_POLICY,
  ThrottlePolicy,
  throttleSubjectOf,
} from './throttle-policies';
import { ThrottlingService } from './throttling.service';

/**
 * Runs before the body is validated. Under `login` and `claim` it only refuses a blocked key, so a
 * correct password or a real code is never counted nor kept waiting; the failures are counted by
 * the sign-in itself and by CountRefusalsInterceptor. Under `email-change` it counts a call that
 * changes the email and ignores any other. Under the other policies it counts the call.
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
    const subject = throttleSubjectOf(policy, req);
    const counted = COUNTED_CALLS[policy];
    if (counted === 'email-changing-call') {
      if (changesEmail(req)) await this.throttling.count(policy, subject, req.ip);
    } else if (counted === 'every-call') await this.throttling.count(policy, subject, req.ip);
    else await this.throttling.refuseIfBlocked(policy, subject, req.ip);
    return true;
  }
}
