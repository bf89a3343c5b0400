import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordsModule } from '../passwords/passwords.module';
import { UsersModule } from '../users/users.module';
import { AccessTokensRepository } from './access-tokens.repository';
import { AccessTokensService } from './access-tokens.service';
import { PersonalAccessToken } from './personal-access-token.entity';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

@Module({
  imports: [TypeOrmModule.forFeature([PersonalAccessToken]), UsersModule, PasswordsModule],
  controllers: [SessionsController],
  providers: [AccessTokensRepository, AccessTokensService, SessionsService],
  exports: [AccessTokensService],
})
export class SessionsModule {}
