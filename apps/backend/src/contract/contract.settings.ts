import { IsString, MinLength, ValidateIf } from 'class-validator';
import type { BaseEnv } from '@rt/platform';

/** Who may read `GET /contract`. */
export class ContractSettings {
  /**
   * Static developer token that guards `GET /contract` outside the local environment, where it is
   * required (APP_ENV is BaseEnv's, the section before: loadSections).
   */
  @ValidateIf((settings: ContractSettings & Pick<BaseEnv, 'APP_ENV'>) => settings.APP_ENV !== 'local')
  @IsString({ message: 'CONTRACT_ACCESS_TOKEN is required outside the local environment' })
  @MinLength(32)
  CONTRACT_ACCESS_TOKEN?: string;
}
