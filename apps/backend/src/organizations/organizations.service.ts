import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { Membership } from './membership.entity';
import type { OrganizationType } from './organization.entity';
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

  /**
   * Whether every organization of the user is a public signup no super-admin approved yet (its
   * manager never notified); false for a user without memberships (docs/decisions.md D-69).
   */
  inUnapprovedSignupsOnly(userId: string): Promise<boolean> {
    return this.organizations.inUnapprovedSignupsOnly(userId);
  }

  /** The organization's type; null when it does not exist (a malformed id included). */
  findType(id: string): Promise<OrganizationType | null> {
    return isUUID(id) ? this.organizations.findType(id) : Promise.resolve(null);
  }

  /** The id of an organization of this name and type; null if none (the tours demo seed). */
  findIdByNameAndType(name: string, type: OrganizationType): Promise<string | null> {
    return this.organizations.findIdByNameAndType(name, type);
  }
}
