import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessTokensModule } from '../access-tokens/access-tokens.module';
import { ImagesModule } from '../images/images.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PasswordsModule } from '../passwords/passwords.module';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

/** Users (`users`): the signed-in user's resource, super-admin provisioning. Exports its service only. */
@Module({
  imports: [
    TypeOrmModule.forFeature([User]),
    OrganizationsModule,
    AccessTokensModule,
    PasswordsModule,
    ImagesModule,
  ],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService],
  exports: [UsersService],
})
export class UsersModule {}
