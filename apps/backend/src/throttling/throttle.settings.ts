import { IntSetting } from '@rt/platform';

/**
 * The budgets and windows of the throttle policies (throttle-policies.ts): for each, calls (or
 * failures) allowed per email or user and client address, per client address alone, and the window
 * that also says how long a blocked key waits.
 */
export class ThrottleSettings {
  /** Failed logins allowed per email and client address within the window, then 429. */
  @IntSetting({ min: 1 })
  THROTTLE_LOGIN_LIMIT: number = 5;

  /** The window of login failures, and how long a blocked email and address (or address) waits. */
  @IntSetting({ min: 1 })
  THROTTLE_LOGIN_WINDOW_SECONDS: number = 300;

  /**
   * Failed logins allowed per client address, whatever the email, within the login window, then
   * 429 for every login from that address; larger than the per-email limit, as many users may
   * share one address (an office behind NAT).
   */
  @IntSetting({ min: 1 })
  THROTTLE_LOGIN_ADDRESS_LIMIT: number = 50;

  /**
   * Calls of `POST /forgot-password` (and, counted apart, of `POST /reset-password`) allowed per
   * email and client address within the window, then 429.
   */
  @IntSetting({ min: 1 })
  THROTTLE_PASSWORD_LIMIT: number = 5;

  /** Calls of each of those routes allowed per client address, whatever the email, within the window. */
  @IntSetting({ min: 1 })
  THROTTLE_PASSWORD_ADDRESS_LIMIT: number = 20;

  /** The window of those calls, and how long a blocked email and address (or address) waits. */
  @IntSetting({ min: 1 })
  THROTTLE_PASSWORD_WINDOW_SECONDS: number = 3600;

  /** `POST /organizations/signup` calls allowed per client address within the window, then 429. */
  @IntSetting({ min: 1 })
  THROTTLE_SIGNUP_LIMIT: number = 5;

  /** The window of signups, and how long a blocked address waits. */
  @IntSetting({ min: 1 })
  THROTTLE_SIGNUP_WINDOW_SECONDS: number = 3600;

  /** Refused `POST /activation-codes/claim` calls allowed per user within the window, then 429. */
  @IntSetting({ min: 1 })
  THROTTLE_CLAIM_LIMIT: number = 10;

  /** Refused claims allowed per client address, whatever the user, within the window. */
  @IntSetting({ min: 1 })
  THROTTLE_CLAIM_ADDRESS_LIMIT: number = 100;

  /** The window of claims, and how long a blocked user (or address) waits. */
  @IntSetting({ min: 1 })
  THROTTLE_CLAIM_WINDOW_SECONDS: number = 3600;

  /**
   * `PUT /user` calls that change the email (whatever their answer) allowed per user within the
   * window, then 429 for those calls (docs/decisions.md D-70).
   */
  @IntSetting({ min: 1 })
  THROTTLE_EMAIL_CHANGE_LIMIT: number = 5;

  /** Email-changing calls allowed per client address, whatever the user, within the window. */
  @IntSetting({ min: 1 })
  THROTTLE_EMAIL_CHANGE_ADDRESS_LIMIT: number = 20;

  /** The window of email changes, and how long a blocked user (or address) waits. */
  @IntSetting({ min: 1 })
  THROTTLE_EMAIL_CHANGE_WINDOW_SECONDS: number = 3600;

  /**
   * `POST /images` calls (whatever their answer) allowed per user within the window, then 429: an
   * afternoon of illustrating activities, while one account cannot keep the decoders busy.
   */
  @IntSetting({ min: 1 })
  THROTTLE_IMAGES_LIMIT: number = 100;

  /** Uploads allowed per client address, whatever the user, within the window (a team behind one NAT). */
  @IntSetting({ min: 1 })
  THROTTLE_IMAGES_ADDRESS_LIMIT: number = 300;

  /** The window of uploads, and how long a blocked user (or address) waits. */
  @IntSetting({ min: 1 })
  THROTTLE_IMAGES_WINDOW_SECONDS: number = 3600;
}
