import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { Membership } from './membership.entity';
import { Organization } from './organization.entity';
import { OrganizationManagementService } from './organization-management.service';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsRepository } from './organizations.repository';

/**
 * The organizations endpoints. A module apart from OrganizationsModule because creating an
 * organization creates users: users needs OrganizationsModule (memberships of the user resource,
 * hats), and this module needs users, so one module would be a cycle. Both belong to the
 * organizations feature and reach the tables through the same repository class (no statement on
 * `organizations` or `memberships` outside it). Emails: the global MailModule's outbox.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Organization, Membership]), UsersModule],
  controllers: [OrganizationsController],
  providers: [OrganizationsRepository, OrganizationManagementService],
  exports: [OrganizationManagementService],
})
export class OrganizationManagementModule {}
