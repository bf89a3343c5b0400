import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { AccessTokensModule } from '../access-tokens/access-tokens.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AccessPolicyAudit } from './access-policy.audit';
import { AccessGuard } from './access.guard';
import { HatsService } from './hats.service';

/**
 * Sign-in and viewing-context enforcement for every route (a global guard), of the rules that
 * routes declare with the access kit (src/access/). It sits above the features it asks (tokens,
 * organizations); nothing imports it but the app module.
 */
@Module({
  imports: [DiscoveryModule, AccessTokensModule, OrganizationsModule],
  providers: [HatsService, AccessPolicyAudit, { provide: APP_GUARD, useClass: AccessGuard }],
})
export class ViewingModule {}
