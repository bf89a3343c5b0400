import { Module } from '@nestjs/common';
import { AccessTokensModule } from '../access-tokens/access-tokens.module';
import { PasswordsModule } from '../passwords/passwords.module';
import { UsersModule } from '../users/users.module';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';

/** `POST /login` and `POST /logout`: tokens (access-tokens) for a user's credentials (users). */
@Module({
  imports: [UsersModule, AccessTokensModule, PasswordsModule],
  controllers: [SessionsController],
  providers: [SessionsService],
})
export class SessionsModule {}
