import { Injectable } from '@nestjs/common';
import { AppError } from '@rt/errors';
import { AccessTokensService } from '../access-tokens/access-tokens.service';
import { PasswordHasher } from '../passwords/password-hasher';
import { ThrottlingService } from '../throttling/throttling.service';
import { AdminPasswordFile } from '../users/admin-password-file';
import { UsersService } from '../users/users.service';
import { LoginDto } from './dto/login.dto';
import { LoginResponseDto } from './dto/login.response';

@Injectable()
export class SessionsService {
  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly tokens: AccessTokensService,
    private readonly throttling: ThrottlingService,
    private readonly adminPasswordFile: AdminPasswordFile,
  ) {}

  /**
   * Signs in with email and password; wrong credentials answer the same (422 on `email`), and
   * take as long, whether or not the address exists. The `login` throttle counts failures only:
   * the guard has refused a blocked email and address (or address) before this runs; a failure is
   * counted here, and a success clears the failures of its email and address.
   */
  async login(dto: LoginDto, clientIp: string | undefined): Promise<LoginResponseDto> {
    const user = await this.users.findByEmail(dto.email);
    const passwordHash = user?.passwordHash ?? null;
    const valid = await this.hasher.verify(dto.password, passwordHash);
    if (!user || !valid || passwordHash === null) {
      await this.throttling.count('login', dto.email, clientIp);
      throw AppError.validation({ email: ['These credentials do not match our records.'] });
    }
    await this.throttling.succeeded('login', dto.email, clientIp);
    if (this.hasher.needsRehash(passwordHash)) {
      await this.users.setPasswordHash(user.id, await this.hasher.hash(dto.password));
    }
    const token = await this.tokens.issue(user.id, dto.device_name);
    await this.adminPasswordFile.endFor(user.email);
    return { token, user: await this.users.resourceOf(user) };
  }

  logout(tokenId: string): Promise<void> {
    return this.tokens.revoke(tokenId);
  }
}
