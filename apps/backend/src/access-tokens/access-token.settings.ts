import { IntSetting } from '@rt/platform';

/** Sign-in tokens (access tokens). */
export class AccessTokenSettings {
  /** A sign-in token unused for this many days stops working (docs/decisions.md D-20: default 30). */
  @IntSetting({ min: 1, max: 3650 })
  TOKEN_IDLE_DAYS: number = 30;
}
