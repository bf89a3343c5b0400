import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessTokensModule } from '../access-tokens/access-tokens.module';
import { ImagesModule } from '../images/images.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PasswordsModule } from '../passwords/passwords.module';
import { EmailChangeToken } from './email-change-token.entity';
import { EmailChange } from './email-change.entity';
import { EmailChangeService } from './email-change.service';
import { EmailChangesRepository } from './email-changes.repository';
import { AdminPasswordFile } from './admin-password-file';
import { MailedLinks } from './mailed-links';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/**
 * Users (`users`, and the email changes: `email_changes`, `email_change_tokens`): the signed-in
 * user's resource, confirmed email changes (D-70), super-admin provisioning. Exports its service,
 * and MailedLinks, where the features whose links go to a user's address say how to end them.
 * Emails: the global MailModule's outbox and delivery values.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([User, EmailChange, EmailChangeToken]),
    OrganizationsModule,
    AccessTokensModule,
    PasswordsModule,
    ImagesModule,
  ],
  controllers: [UsersController],
  providers: [
    UsersRepository,
    UsersService,
    EmailChangesRepository,
    EmailChangeService,
    MailedLinks,
    AdminPasswordFile,
  ],
  exports: [UsersService, MailedLinks, AdminPasswordFile],
})
export class UsersModule {}
