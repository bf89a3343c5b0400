import { Module } from '@nestjs/common';
import { PreviewController } from './preview.controller';
import { DEFAULT_PREVIEW_ASSETS_DIR, PREVIEW_ASSETS_DIR, PreviewPage } from './preview-page';

/** The search preview page (`/preview`), imported only when SEARCH_PREVIEW is on (config.ts). */
@Module({
  controllers: [PreviewController],
  providers: [PreviewPage, { provide: PREVIEW_ASSETS_DIR, useValue: DEFAULT_PREVIEW_ASSETS_DIR }],
})
export class PreviewModule {}
