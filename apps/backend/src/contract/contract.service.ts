import { Inject, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppError, ErrorCode } from '@rt/errors';
import { constantTimeEquals } from '../common/secrets';
import { BACKEND_CONFIG, type BackendConfig } from '../config';
import { bearerTokenOf } from '../access-tokens/access-token';

@Injectable()
export class ContractService {
  private document?: OpenAPIObject;

  constructor(@Inject(BACKEND_CONFIG) private readonly config: BackendConfig) {}

  /** Set once at start-up (configureBackendHttp), when every route is known. */
  publish(document: OpenAPIObject): void {
    this.document = document;
  }

  /**
   * The contract; outside the local environment only for `Authorization: Bearer
   * <CONTRACT_ACCESS_TOKEN>` (compared in constant time), 401 otherwise.
   */
  documentFor(authorization: string | undefined): OpenAPIObject {
    if (this.config.APP_ENV !== 'local') {
      const token = bearerTokenOf(authorization);
      const expected = this.config.CONTRACT_ACCESS_TOKEN;
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
