import { Matches } from 'class-validator';
import { ListSetting, StringSetting } from '@rt/platform';

/** The Android app-links file (`/.well-known/assetlinks.json`), validated at start-up. */
export class WellKnownSettings {
  /** `package_name` of the Android app-links file; unset: the file is an empty array. */
  @StringSetting()
  @Matches(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, {
    message: 'ANDROID_PACKAGE_NAME must be a Java package name such as com.example.app',
  })
  ANDROID_PACKAGE_NAME?: string;

  /** SHA-256 fingerprints of the app's signing certificates, comma-separated (`AB:CD:…`, 32 bytes). */
  @ListSetting(
    Matches(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, {
      each: true,
      message: 'ANDROID_CERT_FINGERPRINTS must be SHA-256 fingerprints written AB:CD:… in upper case',
    }),
  )
  ANDROID_CERT_FINGERPRINTS: string[] = [];

  /** `relation` of the app-links file, comma-separated. */
  @ListSetting()
  ANDROID_RELATIONS: string[] = ['delegate_permission/common.handle_all_urls'];
}
