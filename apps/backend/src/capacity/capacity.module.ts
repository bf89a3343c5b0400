import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { CapacityController } from './capacity.controller';
import { CapacityRepository } from './capacity.repository';
import { CapacityService } from './capacity.service';

/**
 * The daily capacity roll-up of a region (`GET /organizations/{id}/capacity`). Owns no table: its
 * repository reads tours, steps, plans, activities, closures and trips; the region is checked
 * through OrganizationsService. Exports its service (the benchmark times its database part).
 */
@Module({
  imports: [OrganizationsModule],
  controllers: [CapacityController],
  providers: [CapacityRepository, CapacityService],
  exports: [CapacityService],
})
export class CapacityModule {}
