import { IntSetting } from '@rt/platform';

/** How long the links of an email change work (docs/decisions.md D-70). */
export class EmailChangeSettings {
  /** Lifetime of a requested email change: its confirmation link, mailed to the new address, works as long. */
  @IntSetting({ min: 1, max: 168 })
  EMAIL_CHANGE_TTL_HOURS: number = 24;

  /**
   * Lifetime of the report link of the notice mailed to the old address: it gives the old address
   * back whatever followed the change, and signs the account out everywhere. The old address stays
   * reserved to the user as long (docs/decisions.md D-70).
   */
  @IntSetting({ min: 1, max: 90 })
  EMAIL_CHANGE_REPORT_TTL_DAYS: number = 7;
}
