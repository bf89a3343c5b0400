import { Injectable } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import type { AuthUser, ViewingContext } from '../access/access';
import { HatKind, parseHat, VIEWING_AS_HEADER } from '../access/hat';
import { OrganizationsService } from '../organizations/organizations.service';

/**
 * The viewing-context rules of docs/decisions.md D-22 and D-23, after the token (401) has been
 * checked, in this order:
 *   hat syntax (422 under `x-viewing-as`) → hat held (403 `hat_not_held`) → organization approved
 *   (403 `organization_not_approved`) → the endpoint's hat rule (403 `forbidden`).
 * Body validation (422) comes after, as pipes run after guards.
 * Who holds what: every signed-in user holds `traveller`; members hold `organization:<id>` of
 * their organizations; a super-admin holds every hat (of an organization that exists).
 */
@Injectable()
export class HatsService {
  constructor(private readonly organizations: OrganizationsService) {}

  async enter(
    user: AuthUser,
    header: string | string[] | undefined,
    accepted: HatKind[] | 'any',
  ): Promise<ViewingContext> {
    if (header === undefined || header === '') {
      // The message names the allowed values, so a caller learns the hats from the refusal.
      throw AppError.validation({
        [VIEWING_AS_HEADER]: [
          'The X-Viewing-As header is required: super-admin, traveller or organization:<organization id>.',
        ],
      });
    }
    const hat = parseHat(header);
    if (!hat) {
      throw AppError.validation({
        [VIEWING_AS_HEADER]: [
          'The X-Viewing-As header must be super-admin, traveller or organization:<organization id>.',
        ],
      });
    }

    let organizationRole: ViewingContext['organizationRole'] = null;
    if (hat.kind === 'super-admin' && !user.isSuperAdmin) throw new AppError(ErrorCode.HatNotHeld);
    if (hat.kind === 'organization') {
      const target = await this.organizations.findHatTarget(hat.organizationId, user.id);
      if (!target || (target.role === null && !user.isSuperAdmin)) throw new AppError(ErrorCode.HatNotHeld);
      if (target.status !== 'approved') throw new AppError(ErrorCode.OrganizationNotApproved);
      organizationRole = target.role;
    }

    if (accepted !== 'any' && !accepted.includes(hat.kind)) throw new AppError(ErrorCode.Forbidden);
    return { hat, user, organizationRole };
  }
}
