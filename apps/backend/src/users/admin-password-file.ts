import { Inject, Injectable } from '@nestjs/common';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKEND_CONFIG, type BackendConfig } from '../config';
import { sameEmail } from './email-address';

/** The file's name, beside the embedded database's folder. */
export const ADMIN_PASSWORD_FILE = 'admin-password.txt';

/**
 * The embedded demo run's one exception to D-17: the super-admin's generated password is also
 * kept in `admin-password.txt` beside the embedded database (mode 0600, the owner's alone), so a start whose log
 * scrolled away, or that failed after seeding, does not lose it. The file goes at that account's
 * first sign-in or password change. With DATABASE_URL (a real deployment) there is never a file.
 */
@Injectable()
export class AdminPasswordFile {
  readonly path: string | null;

  constructor(@Inject(BACKEND_CONFIG) config: BackendConfig) {
    // Beside the embedded database, like the image signing keys (`DATA_DIR=X pnpm start`: X/).
    this.path = config.DATABASE_URL ? null : join(config.dataDir, '..', ADMIN_PASSWORD_FILE);
  }

  /** Keeps the password for `email`; answers the file's path, or null when there is none to keep. */
  async keep(email: string, password: string): Promise<string | null> {
    if (!this.path) return null;
    await writeFile(this.path, `${email}\n${password}\n`, { mode: 0o600 });
    return this.path;
  }

  /** The account `email` signed in or changed its password: its one-time password is gone. */
  async endFor(email: string): Promise<void> {
    if (!this.path) return;
    const content = await readFile(this.path, 'utf8').catch(() => null);
    if (content !== null && sameEmail(content.split('\n')[0], email)) await rm(this.path, { force: true });
  }
}
