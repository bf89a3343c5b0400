import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppError, ErrorCode } from '@rt/errors';
import { BaseEnv } from '@rt/platform';
import { constantTimeEquals } from '../common/secrets';
import { bearerTokenOf } from '../access-tokens/access-token';
import { ContractSettings } from './contract.settings';

@Injectable()
export class ContractService {
  private document?: OpenAPIObject;

  constructor(
    private readonly base: BaseEnv,
    private readonly settings: ContractSettings,
  ) {}

  /** Set once at start-up (configureBackendHttp), when every route is known. */
  publish(document: OpenAPIObject): void {
    this.document = document;
  }

  /**
   * The contract; outside the local environment only for `Authorization: Bearer
   * <CONTRACT_ACCESS_TOKEN>` (compared in constant time), 401 otherwise.
   */
  documentFor(authorization: string | undefined): OpenAPIObject {
    if (this.base.APP_ENV !== 'local') {
      const token = bearerTokenOf(authorization);
      const expected = this.settings.CONTRACT_ACCESS_TOKEN;
      if (!token || !expected || !constantTimeEquals(token, expected)) {
        throw new AppError(ErrorCode.Unauthenticated, undefined, undefined, undefined, {
          'WWW-Authenticate': 'Bearer',
        });
      }
    }
    if (!this.document) throw new AppError(ErrorCode.ServiceUnavailable);
    return this.document;
  }
}
