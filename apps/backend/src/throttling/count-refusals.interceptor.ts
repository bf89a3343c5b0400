import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { toAppError } from '@rt/errors';
import type { Request } from 'express';
import { catchError, Observable } from 'rxjs';
import { RATE_LIMIT_POLICY, ThrottlePolicy, throttleSubjectOf } from './throttle-policies';
import { ThrottlingService } from './throttling.service';

/** The answers that refuse what a client sent: a malformed body (400, 422) or a refused claim (422). */
const REFUSED_STATUSES = new Set([400, 422]);

/**
 * For the policies that count refusals only (`claim`): counts a call whose answer refuses what was
 * sent, the body's validation included (pipes run inside the interceptors), after the guard let it
 * through. A refusal that reaches the limit answers 429 instead of its own error.
 */
@Injectable()
export class CountRefusalsInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly throttling: ThrottlingService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const policy = this.reflector.get<ThrottlePolicy | undefined>(RATE_LIMIT_POLICY, context.getHandler());
    if (!policy) return next.handle();
    const req = context.switchToHttp().getRequest<Request>();
    return next.handle().pipe(
      catchError(async (error: unknown) => {
        if (REFUSED_STATUSES.has(toAppError(error).status)) {
          await this.throttling.count(policy, throttleSubjectOf(policy, req), req.ip);
        }
        throw error;
      }),
    );
  }
}
