import { Injectable } from '@nestjs/common';
import { Membership } from './membership.entity';
import { HatTarget, OrganizationsRepository } from './organizations.repository';

/**
 * What other features may ask of organizations and memberships (viewing hats, the user resource).
 * The organizations feature adds its endpoints' rules here.
 */
@Injectable()
export class OrganizationsService {
  constructor(private readonly organizations: OrganizationsRepository) {}

  /** An organization's status and the user's role in it; null when it does not exist. */
  findHatTarget(organizationId: string, userId: string): Promise<HatTarget | null> {
    return this.organizations.findHatTarget(organizationId, userId);
  }

  /** The user's memberships with their organizations, by organization name. */
  findMembershipsOfUser(userId: string): Promise<Membership[]> {
    return this.organizations.findMembershipsOfUser(userId);
  }
}
