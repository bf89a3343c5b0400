import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { MembershipRole } from '../access/access';
import { transactional } from '../database/transactions';
import { Membership } from './membership.entity';
import { Organization, OrganizationStatus, OrganizationType } from './organization.entity';

export interface HatTarget {
  status: OrganizationStatus;
  /** The user's role in the organization, null when not a member. */
  role: MembershipRole | null;
}

export interface NewOrganization {
  name: string;
  type: OrganizationType;
  status: OrganizationStatus;
}

/** The one writer of `organizations` and `memberships`; other features go through OrganizationsService. */
@Injectable()
export class OrganizationsRepository {
  constructor(
    @InjectRepository(Organization) private readonly plainOrganizations: Repository<Organization>,
    @InjectRepository(Membership) private readonly plainMemberships: Repository<Membership>,
  ) {}

  /** The current transaction's repositories inside `Transactions.run`, else the plain ones. */
  private get organizations(): Repository<Organization> {
    return transactional(this.plainOrganizations);
  }

  private get memberships(): Repository<Membership> {
    return transactional(this.plainMemberships);
  }

  /** An organization's status and the user's role in it, in one query (primary keys of both tables). */
  async findHatTarget(organizationId: string, userId: string): Promise<HatTarget | null> {
    const rows: { status: OrganizationStatus; role: MembershipRole | null }[] =
      await this.organizations.query(
        `SELECT o.status, m.role
         FROM organizations o
         LEFT JOIN memberships m ON m.organization_id = o.id AND m.user_id = $2
        WHERE o.id = $1`,
        [organizationId, userId],
      );
    return rows[0] ?? null;
  }

  /** The user's memberships with their organizations, by organization name. */
  findMembershipsOfUser(userId: string): Promise<Membership[]> {
    return this.memberships.find({
      where: { userId },
      relations: { organization: true },
      order: { organization: { name: 'ASC', id: 'ASC' } },
    });
  }

  create(organization: NewOrganization): Promise<Organization> {
    return this.organizations.save(this.organizations.create(organization));
  }

  async addMember(organizationId: string, userId: string, role: MembershipRole): Promise<void> {
    await this.memberships.insert({ organizationId, userId, role });
  }
}
