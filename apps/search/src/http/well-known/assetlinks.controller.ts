import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { WellKnownSettings } from './well-known.settings';

export class AssetLinkTargetDto {
  @ApiProperty({ example: 'android_app' })
  namespace!: 'android_app';

  @ApiProperty({ example: 'com.example.roadtrip' })
  package_name!: string;

  @ApiProperty({
    type: [String],
    example: [
      '14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5',
    ],
  })
  sha256_cert_fingerprints!: string[];
}

export class AssetLinkDto {
  @ApiProperty({ type: [String], example: ['delegate_permission/common.handle_all_urls'] })
  relation!: string[];

  @ApiProperty({ type: AssetLinkTargetDto })
  target!: AssetLinkTargetDto;
}

/** The Android app-links file from configuration; an empty list when no app is configured. */
export function toAssetLinks(settings: WellKnownSettings): AssetLinkDto[] {
  if (!settings.ANDROID_PACKAGE_NAME) return [];
  return [
    {
      relation: settings.ANDROID_RELATIONS,
      target: {
        namespace: 'android_app',
        package_name: settings.ANDROID_PACKAGE_NAME,
        sha256_cert_fingerprints: settings.ANDROID_CERT_FINGERPRINTS,
      },
    },
  ];
}

@ApiTags('operations')
@Controller('.well-known')
export class AssetLinksController {
  constructor(private readonly settings: WellKnownSettings) {}

  @Get('assetlinks.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'Android app-links file',
    description:
      'From ANDROID_PACKAGE_NAME, ANDROID_CERT_FINGERPRINTS and ANDROID_RELATIONS; update them (and redeploy) when the signing certificate changes.',
  })
  @ApiOkResponse({ type: [AssetLinkDto] })
  assetLinks(): AssetLinkDto[] {
    return toAssetLinks(this.settings);
  }
}
