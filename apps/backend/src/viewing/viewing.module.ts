import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { OrganizationsModule } from '../organizations/organizations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { AccessPolicyAudit } from './access-policy.audit';
import { AccessGuard } from './access.guard';
import { HatsService } from './hats.service';

/** Sign-in and viewing-context enforcement for every route (a global guard). */
@Module({
  imports: [DiscoveryModule, SessionsModule, OrganizationsModule],
  providers: [HatsService, AccessPolicyAudit, { provide: APP_GUARD, useClass: AccessGuard }],
})
export class ViewingModule {}
