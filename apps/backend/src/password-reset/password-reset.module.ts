import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessTokensModule } from '../access-tokens/access-tokens.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PasswordsModule } from '../passwords/passwords.module';
import { UsersModule } from '../users/users.module';
import { PasswordResetToken } from './password-reset-token.entity';
import { PasswordResetTokensRepository } from './password-reset-tokens.repository';
import { PasswordResetController } from './password-reset.controller';
import { PasswordResetService } from './password-reset.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([PasswordResetToken]),
    UsersModule,
    OrganizationsModule,
    AccessTokensModule,
    PasswordsModule,
  ],
  controllers: [PasswordResetController],
  providers: [PasswordResetTokensRepository, PasswordResetService],
  exports: [PasswordResetService],
})
export class PasswordResetModule {}
