import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessTokensRepository } from './access-tokens.repository';
import { AccessTokensService } from './access-tokens.service';
import { PersonalAccessToken } from './personal-access-token.entity';

/**
 * Sign-in tokens (`personal_access_tokens`): issued at login, checked on every request by the
 * AccessGuard, revoked at logout, password reset and super-admin reset. It calls no other
 * feature, so users, sessions, password reset and viewing may all use AccessTokensService.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PersonalAccessToken])],
  providers: [AccessTokensRepository, AccessTokensService],
  exports: [AccessTokensService],
})
export class AccessTokensModule {}
