import { Injectable } from '@nestjs/common';
import { LIST_PAGE_RULES, paginated, Paginated, toPage } from '@rt/contracts';
import { AppError } from '@rt/errors';
import { Clock } from '../common/clock';
import { Transactions } from '../database/transactions';
import { MailOutbox } from '../mail/mail-outbox';
import { accountEmailOrRefuse } from '../users/email-address';
import type { PreferredLanguage } from '../common/preferred-language';
import type { User } from '../users/user.entity';
import {
  emailIsConfirmed,
  EmailReservedError,
  EmailTakenError,
  emailTakenError,
  UsersService,
} from '../users/users.service';
import { ContactConsentService } from './contact-consent.service';
import { CreateOrganizationDto } from './dto/create-organization.dto';
import { OrganizationListItemDto } from './dto/organization-list-item.response';
import { OrganizationSummaryDto } from './dto/organization-summary.response';
import { OrganizationResponseDto } from './dto/organization.response';
import { OrganizationsQueryDto } from './dto/organizations-query.dto';
import { SignUpOrganizationDto } from './dto/sign-up-organization.dto';
import { StatusTarget } from './dto/update-organization-status.dto';
import { UpdateOrganizationDto } from './dto/update-organization.dto';
import { InvalidContactConsentTokenError } from './invalid-contact-consent-token.error';
import type { CommissionType, OrganizationStatus, OrganizationType } from './organization.entity';
import { commissionOf, organizationChanges, statusMoveOf } from './organization-rules';
import { toOrganizationListItem, toOrganizationResponse, toOrganizationSummary } from './organization.mapper';
import { OrganizationsRepository } from './organizations.repository';

/** Who manages a new organization: an existing account (by email, in its canonical form) or a new one. */
export interface ManagerInput {
  email: string;
  /** For a new account only, like the language. */
  firstName: string;
  lastName: string;
  preferredLanguage: PreferredLanguage;
}

export interface OrganizationInput {
  name: string;
  type: OrganizationType;
  status: OrganizationStatus;
  description: string | null;
  commission?: { value: number; type: CommissionType };
}

export const organizationNotFound = () => AppError.notFound('Organization not found.');

/**
 * The rules of the organizations endpoints: creation with a manager (a new account or an existing
 * one), the signup, updates, the status moves and the emails they cause. Each write, with the
 * users and emails it involves, is one transaction; emails go through the outbox in it.
 */
@Injectable()
export class OrganizationManagementService {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly users: UsersService,
    private readonly contactConsents: ContactConsentService,
    private readonly mailOutbox: MailOutbox,
    private readonly transactions: Transactions,
    private readonly clock: Clock,
  ) {}

  /** `GET /organizations`: by name then id; `meta.total` is the size of the filtered set. */
  async list(query: OrganizationsQueryDto): Promise<Paginated<OrganizationListItemDto>> {
    const page = toPage(query, LIST_PAGE_RULES);
    const [views, total] = await this.organizations.findPage(
      { type: query.type, status: query.status },
      page,
    );
    return paginated(views.map(toOrganizationListItem), total, page);
  }

  /** `GET /organizations/default`: the summary of the organization flagged default. */
  async defaultOrganization(): Promise<OrganizationSummaryDto> {
    const id = await this.organizations.findDefaultId();
    const view = id ? await this.organizations.findView(id) : null;
    if (!view) throw AppError.notFound('No default organization.');
    return toOrganizationSummary(view);
  }

  /** The organization resource with its members; 404 when the id names none. */
  async details(id: string): Promise<OrganizationResponseDto> {
    const view = await this.organizations.findView(id);
    if (!view) throw organizationNotFound();
    return toOrganizationResponse(view, await this.organizations.findMembers(id));
  }

  /**
   * `POST /organizations`: a pending organization whose manager hears from us now: an invitation
   * (set a password) for an account without password, new or not; `manager-added` otherwise.
   */
  async create(dto: CreateOrganizationDto): Promise<OrganizationResponseDto> {
    accountEmailOrRefuse('manager_email', dto.manager_email);
    const id = await this.createWithManager(
      {
        name: dto.name,
        type: dto.type,
        status: 'pending',
        description: dto.description ?? null,
        commission: commissionOf(dto),
      },
      {
        email: dto.manager_email,
        firstName: dto.manager_first_name,
        lastName: dto.manager_last_name,
        preferredLanguage: dto.preferred_language,
      },
      { notifyNow: true, emailField: 'manager_email', existingAccountConsents: false },
    );
    return this.details(id);
  }

  /**
   * `POST /organizations/signup`: a pending reseller. A new contact account is its manager and hears
   * from us at the first approval; an existing account is asked for its consent first (D-78).
   */
  async signUp(dto: SignUpOrganizationDto): Promise<OrganizationSummaryDto> {
    accountEmailOrRefuse('contact_email', dto.contact_email);
    const input: OrganizationInput = {
      name: dto.name,
      type: 'reseller',
      status: 'pending',
      description: dto.description ?? null,
    };
    const id = await this.createWithManager(
      input,
      {
        email: dto.contact_email,
        firstName: dto.contact_first_name,
        lastName: dto.contact_last_name,
        preferredLanguage: dto.preferred_language,
      },
      { notifyNow: false, emailField: 'contact_email', existingAccountConsents: true },
    );
    return { id, name: input.name, type: input.type, status: input.status };
  }

  /** `PATCH /organizations/{id}`: the fields sent; the commission pair comes whole or not at all. */
  async update(id: string, dto: UpdateOrganizationDto): Promise<OrganizationResponseDto> {
    if (!(await this.organizations.update(id, organizationChanges(dto)))) throw organizationNotFound();
    return this.details(id);
  }

  /**
   * `PATCH /organizations/{id}/status`. The row is locked for the transaction, so concurrent
   * moves of one organization run one after the other and the manager is notified once: at the
   * first approval of an organization whose manager has not heard from us (a signup). A signup
   * whose existing contact account has not consented yet has no manager: its first approval mails
   * the account the consent request again, and the membership waits for the consent
   * (docs/decisions.md D-78). A move to the current status changes nothing and sends nothing.
   * `pending` never gets here (the body's validation refuses it).
   */
  async changeStatus(id: string, status: StatusTarget): Promise<OrganizationResponseDto> {
    await this.transactions.run(async () => {
      const organization = await this.organizations.findByIdForUpdate(id);
      if (!organization) throw organizationNotFound();
      const move = statusMoveOf(organization, status);
      if (move === 'none') return;
      if (move === 'first-approval') {
        const managerId = await this.organizations.findManagerId(id);
        const manager = managerId ? await this.users.findById(managerId) : null;
        if (manager) {
          await this.notifyManager(manager, organization.name);
          await this.organizations.setStatus(id, status, this.clock.now());
          return;
        }
        const consent = await this.contactConsents.pendingOf(id);
        const contact = consent ? await this.users.findById(consent.userId) : null;
        if (consent && contact) {
          await this.contactConsents.mail(consent, contact, organization.name);
          await this.organizations.setStatus(id, status, this.clock.now());
          return;
        }
      }
      await this.organizations.setStatus(id, status);
    });
    return this.details(id);
  }

  /**
   * `POST /organization-contact-consent`: the account a signup named as its contact accepts, with
   * the token of the link mailed to it, and becomes the organization's manager. When the
   * organization was approved meanwhile (the approval mailed the request instead of notifying a
   * manager), the new manager is notified now, as the approval would have. One transaction; a
   * bad, expired or used token → 422 `invalid_contact_consent_token` (D-78).
   */
  async acceptContactConsent(token: string): Promise<void> {
    await this.transactions.run(async () => {
      const consent = await this.contactConsents.take(token);
      const organization = await this.organizations.findByIdForUpdate(consent.organizationId);
      const user = await this.users.findById(consent.userId);
      // Both cascade to the consent, locked by `take`: neither is missing unless deleted just now.
      if (!organization || !user) throw new InvalidContactConsentTokenError();
      await this.organizations.addMember(organization.id, user.id, 'manager');
      if (organization.managerInvitedAt) await this.notifyManager(user, organization.name);
    });
  }

  /**
   * The organization, its manager's account when the address has none (no password), the
   * membership and, with `notifyNow`, the manager's email and `manager_invited_at`: one
   * transaction. With `existingAccountConsents` (a public signup), an existing account gets no
   * membership but a consent request (D-78). Two creations racing for one new address: the second
   * insert of the user fails on the unique email, and the whole transaction is tried once more
   * (the account exists then). An address reserved to another user (D-70) → 422 `email_taken` on
   * `emailField`.
   */
  async createWithManager(
    input: OrganizationInput,
    manager: ManagerInput,
    options: {
      notifyNow: boolean;
      emailField: 'manager_email' | 'contact_email';
      existingAccountConsents: boolean;
    },
  ): Promise<string> {
    const attempt = () =>
      this.transactions.run(async () => {
        const existing = await this.users.findByEmail(manager.email);
        const user = existing ?? (await this.users.createInvited(manager));
        const organization = await this.organizations.create({
          name: input.name,
          type: input.type,
          status: input.status,
          description: input.description,
          ...(input.commission
            ? { commission: input.commission.value.toFixed(2), commissionType: input.commission.type }
            : {}),
          managerInvitedAt: options.notifyNow ? this.clock.now() : null,
        });
        if (existing && options.existingAccountConsents) {
          await this.contactConsents.askAtSignup(organization, existing);
          return organization.id;
        }
        await this.organizations.addMember(organization.id, user.id, 'manager');
        if (options.notifyNow) await this.notifyManager(user, organization.name);
        return organization.id;
      });
    const refuseReserved = (error: unknown): never => {
      if (error instanceof EmailReservedError) throw emailTakenError(options.emailField);
      throw error;
    };
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof EmailTakenError) return attempt().catch(refuseReserved);
      return refuseReserved(error);
    }
  }

  /**
   * An account whose email is confirmed and that has a password is told it manages the
   * organization; any other is invited (a set-password link to the address, issued at delivery),
   * so an account that merely holds the address never becomes a manager its owner did not prove
   * to be (docs/decisions.md D-70): a password it had without a confirmed email is withdrawn, with
   * its sign-in tokens, in the same transaction. In the recipient's own language.
   */
  private async notifyManager(user: User, organizationName: string): Promise<void> {
    if (user.passwordHash === null || !emailIsConfirmed(user)) {
      await this.users.withdrawUnconfirmedPassword(user);
      await this.mailOutbox.enqueue({
        template: 'invitation',
        to: user.email,
        language: user.preferredLanguage,
        payload: { user_id: user.id, first_name: user.firstName, organization_name: organizationName },
      });
    } else {
      await this.mailOutbox.enqueue({
        template: 'manager-added',
        to: user.email,
        language: user.preferredLanguage,
        payload: { first_name: user.firstName, organization_name: organizationName },
      });
    }
  }
}
