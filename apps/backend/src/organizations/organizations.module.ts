import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Membership } from './membership.entity';
import { Organization } from './organization.entity';
import { OrganizationsRepository } from './organizations.repository';
import { OrganizationsService } from './organizations.service';

/**
 * Organizations and memberships as far as users and hats need them; the organizations feature
 * extends it. The one provider of OrganizationsRepository, exported to OrganizationManagementModule.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Organization, Membership])],
  providers: [OrganizationsRepository, OrganizationsService],
  exports: [OrganizationsRepository, OrganizationsService],
})
export class OrganizationsModule {}
