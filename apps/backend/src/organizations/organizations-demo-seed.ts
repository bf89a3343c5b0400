import { Injectable } from '@nestjs/common';
import {
  ManagerInput,
  OrganizationInput,
  OrganizationManagementService,
} from './organization-management.service';
import type { OrganizationType } from './organization.entity';
import { OrganizationsRepository } from './organizations.repository';

/** What `run` created, for the start-up log. */
export interface SeededOrganization {
  name: string;
  type: OrganizationType;
  managerEmail: string;
}

const DEMO_ORGANIZATIONS: (OrganizationInput & { manager: ManagerInput })[] = [
  {
    name: 'Valais Region',
    type: 'region',
    status: 'approved',
    description: 'Demo region: tours and activities of the Valais.',
    manager: {
      email: 'region.manager@example.com',
      firstName: 'Rita',
      lastName: 'Region',
      preferredLanguage: 'fr-ch',
    },
  },
  {
    name: 'Alpine Adventures',
    type: 'reseller',
    status: 'approved',
    description: 'Demo reseller.',
    commission: { value: 12.5, type: 'percent' },
    manager: {
      email: 'reseller.manager@example.com',
      firstName: 'Rémy',
      lastName: 'Reseller',
      preferredLanguage: 'en-gb',
    },
  },
];

/** The demo organizations of the embedded run (main.ts) and the tours benchmark. */
@Injectable()
export class OrganizationsDemoSeed {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly management: OrganizationManagementService,
  ) {}

  /**
   * When no organization but the default one exists, an approved region and an approved reseller,
   * each with a new manager invited by email (the path of `POST /organizations`).
   */
  async run(): Promise<SeededOrganization[]> {
    if (await this.organizations.existsOtherThanDefault()) return [];
    const seeded: SeededOrganization[] = [];
    for (const { manager, ...organization } of DEMO_ORGANIZATIONS) {
      await this.management.createWithManager(organization, manager, {
        notifyNow: true,
        emailField: 'manager_email',
        existingAccountConsents: false,
      });
      seeded.push({ name: organization.name, type: organization.type, managerEmail: manager.email });
    }
    return seeded;
  }
}
