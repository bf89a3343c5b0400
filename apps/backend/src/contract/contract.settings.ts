import { StringSetting } from '@rt/platform';

/** Who may read `GET /contract`. */
export class ContractSettings {
  /**
   * Static developer token that guards `GET /contract` outside the local environment, where it is
   * required and at least 32 characters long (a rule across sections, so src/config.ts checks it).
   */
  @StringSetting()
  CONTRACT_ACCESS_TOKEN?: string;
}
