import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { SignupContactConsentToken } from './contact-consent-token.entity';
import { SignupContactConsent } from './contact-consent.entity';
import { ContactConsentService } from './contact-consent.service';
import { ContactConsentsRepository } from './contact-consents.repository';
import { OrganizationManagementService } from './organization-management.service';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsDemoSeed } from './organizations-demo-seed';
import { OrganizationsModule } from './organizations.module';

/**
 * The organizations endpoints. A module apart from OrganizationsModule because creating an
 * organization creates users: users needs OrganizationsModule (memberships of the user resource,
 * hats), and this module needs users, so one module would be a cycle. Both belong to the
 * organizations feature and reach the tables through the one OrganizationsRepository that
 * OrganizationsModule provides (no statement on `organizations` or `memberships` outside it). Emails: the global MailModule's outbox. The
 * consents of signup contacts (docs/decisions.md D-78) are this module's alone.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SignupContactConsent, SignupContactConsentToken]),
    OrganizationsModule,
    UsersModule,
  ],
  controllers: [OrganizationsController],
  providers: [
    ContactConsentsRepository,
    ContactConsentService,
    OrganizationManagementService,
    OrganizationsDemoSeed,
  ],
  exports: [OrganizationManagementService, OrganizationsDemoSeed],
})
export class OrganizationManagementModule {}
