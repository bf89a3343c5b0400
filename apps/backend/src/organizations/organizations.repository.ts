import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { MembershipRole } from '../access/access';
import { organizationCodeCountsSql } from '../activation-codes/activation-code-status.sql';
import { findByIdForUpdate, updateById } from '../database/row-statements';
import { transactional } from '../database/transactions';
import { Membership } from './membership.entity';
import { CommissionType, Organization, OrganizationStatus, OrganizationType } from './organization.entity';

export interface HatTarget {
  status: OrganizationStatus;
  /** The user's role in the organization, null when not a member. */
  role: MembershipRole | null;
}

export interface NewOrganization {
  name: string;
  type: OrganizationType;
  status: OrganizationStatus;
  description?: string | null;
  /** numeric(10,2) written as a string ("12.50"); absent: the column default, "0.00". */
  commission?: string;
  /** Absent: the column default, `percent`. */
  commissionType?: CommissionType;
  managerInvitedAt?: Date | null;
}

/** The fields `PATCH /organizations/{id}` may change; absent ones stay. */
export interface OrganizationChanges {
  name?: string;
  description?: string | null;
  commission?: string;
  commissionType?: CommissionType;
}

/** An organization as its resources show it: its row, its contact and its code counts. */
export interface OrganizationView {
  id: string;
  name: string;
  type: OrganizationType;
  status: OrganizationStatus;
  description: string | null;
  contactEmail: string | null;
  commission: string;
  commissionType: CommissionType;
  activationCodesCount: number;
  activationCodesInStockCount: number;
  createdAt: Date;
}

export interface MemberView {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: MembershipRole;
}

export interface OrganizationFilter {
  type?: OrganizationType;
  status?: OrganizationStatus;
}

interface ViewRow {
  id: string;
  name: string;
  type: OrganizationType;
  status: OrganizationStatus;
  description: string | null;
  contact_email: string | null;
  commission: string;
  commission_type: CommissionType;
  activation_codes_count: number;
  activation_codes_in_stock_count: number;
  created_at: Date;
}

/**
 * The resource's columns, with the contact's email: the manager's, else that of the account whose
 * consent a signup awaits (docs/decisions.md D-78). Neither join repeats a row
 * (memberships_single_manager, signup_contact_consents_organization_unique).
 */
const VIEW_SELECT = `
  SELECT o.id, o.name, o.type, o.status, o.description, o.commission, o.commission_type, o.created_at,
         COALESCE(manager.email, contact.email) AS contact_email,
         -- Counted from the codes themselves (never a counter stored on the organization).
         ${organizationCodeCountsSql('o.id')}
    FROM organizations o
    LEFT JOIN memberships m ON m.organization_id = o.id AND m.role = 'manager'
    LEFT JOIN users manager ON manager.id = m.user_id
    LEFT JOIN signup_contact_consents consent ON consent.organization_id = o.id
    LEFT JOIN users contact ON contact.id = consent.user_id`;

const toView = (row: ViewRow): OrganizationView => ({
  id: row.id,
  name: row.name,
  type: row.type,
  status: row.status,
  description: row.description,
  contactEmail: row.contact_email,
  commission: row.commission,
  commissionType: row.commission_type,
  activationCodesCount: Number(row.activation_codes_count),
  activationCodesInStockCount: Number(row.activation_codes_in_stock_count),
  createdAt: row.created_at,
});

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

  /**
   * Whether the user has memberships and every one is in a signup never approved: an organization
   * not approved whose manager was never notified (`manager_invited_at` null; docs/decisions.md
   * D-69). False without memberships. Primary key of memberships, then of organizations.
   */
  async inUnapprovedSignupsOnly(userId: string): Promise<boolean> {
    const rows: { only: boolean | null }[] = await this.memberships.query(
      `SELECT bool_and(o.manager_invited_at IS NULL AND o.status <> 'approved') AS only
         FROM memberships m
         JOIN organizations o ON o.id = m.organization_id
        WHERE m.user_id = $1`,
      [userId],
    );
    return rows[0]?.only === true;
  }

  create(organization: NewOrganization): Promise<Organization> {
    return this.organizations.save(this.organizations.create(organization));
  }

  async addMember(organizationId: string, userId: string, role: MembershipRole): Promise<void> {
    await this.memberships.insert({ organizationId, userId, role });
  }

  /** One page of the filtered organizations by name then id (organizations_type_name_idx), and the filtered count. */
  async findPage(
    filter: OrganizationFilter,
    page: { offset: number; limit: number },
  ): Promise<[OrganizationView[], number]> {
    const where = `WHERE ($1::varchar IS NULL OR o.type = $1) AND ($2::varchar IS NULL OR o.status = $2)`;
    const params = [filter.type ?? null, filter.status ?? null];
    const rows: ViewRow[] = await this.organizations.query(
      `${VIEW_SELECT} ${where} ORDER BY o.name, o.id LIMIT $3 OFFSET $4`,
      [...params, page.limit, page.offset],
    );
    const counted: { total: string }[] = await this.organizations.query(
      `SELECT count(*) AS total FROM organizations o ${where}`,
      params,
    );
    return [rows.map(toView), Number(counted[0].total)];
  }

  /** The organization's view by primary key; null when it does not exist. */
  async findView(id: string): Promise<OrganizationView | null> {
    const rows: ViewRow[] = await this.organizations.query(`${VIEW_SELECT} WHERE o.id = $1`, [id]);
    return rows[0] ? toView(rows[0]) : null;
  }

  /** The members with their users: the manager first, then by last name, first name, id. */
  async findMembers(organizationId: string): Promise<MemberView[]> {
    const rows: {
      user_id: string;
      email: string;
      first_name: string;
      last_name: string;
      role: MembershipRole;
    }[] = await this.memberships.query(
      `SELECT u.id AS user_id, u.email, u.first_name, u.last_name, m.role
         FROM memberships m
         JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1
        ORDER BY (m.role = 'manager') DESC, u.last_name, u.first_name, u.id`,
      [organizationId],
    );
    return rows.map((row) => ({
      userId: row.user_id,
      email: row.email,
      firstName: row.first_name,
      lastName: row.last_name,
      role: row.role,
    }));
  }

  /** The id of the organization flagged default (organizations_single_default); null if none. */
  async findDefaultId(): Promise<string | null> {
    const found = await this.organizations.findOne({ select: { id: true }, where: { isDefault: true } });
    return found?.id ?? null;
  }

  /**
   * The organization, its row locked until the transaction ends (`SELECT … FOR UPDATE`), so
   * concurrent status changes of one organization run one after the other. Inside `Transactions.run` only.
   */
  findByIdForUpdate(id: string): Promise<Organization | null> {
    return findByIdForUpdate(this.organizations, 'o', id);
  }

  /** The user id of the organization's manager (memberships_single_manager); null if none. */
  async findManagerId(organizationId: string): Promise<string | null> {
    const found = await this.memberships.findOne({
      select: { userId: true },
      where: { organizationId, role: 'manager' },
    });
    return found?.userId ?? null;
  }

  /** Applies the changes; false when the organization does not exist. */
  update(id: string, changes: OrganizationChanges): Promise<boolean> {
    return updateById(this.organizations, id, changes);
  }

  async setStatus(id: string, status: OrganizationStatus, managerInvitedAt?: Date): Promise<void> {
    await this.organizations.update({ id }, { status, ...(managerInvitedAt ? { managerInvitedAt } : {}) });
  }

  /** The organization's type; null when it does not exist (tours check their partner and region). */
  async findType(id: string): Promise<OrganizationType | null> {
    const found = await this.organizations.findOne({ select: { id: true, type: true }, where: { id } });
    return found?.type ?? null;
  }

  /** The id of an organization of this name and type (the first by id); null if none. */
  async findIdByNameAndType(name: string, type: OrganizationType): Promise<string | null> {
    const found = await this.organizations.findOne({
      select: { id: true },
      where: { name, type },
      order: { id: 'ASC' },
    });
    return found?.id ?? null;
  }

  /** Whether any organization other than the default one exists (the demo seed). */
  existsOtherThanDefault(): Promise<boolean> {
    return this.organizations.existsBy({ isDefault: false });
  }
}
