import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { PREVIEW_CONTENT_SECURITY_POLICY, PreviewPage } from './preview-page';

/**
 * `/preview`: the search preview page and its bundle (docs/preview.md). A tool beside the API,
 * not part of its contract.
 */
@ApiExcludeController()
@Controller('preview')
export class PreviewController {
  constructor(private readonly page: PreviewPage) {}

  @Get()
  async html(@Res({ passthrough: true }) response: Response): Promise<string> {
    const html = await this.page.html();
    // Set once the page is there: an error answer keeps the envelope's JSON.
    response.set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': PREVIEW_CONTENT_SECURITY_POLICY,
      'Cache-Control': 'no-cache',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    return html;
  }

  @Get('assets/:file')
  async asset(@Param('file') file: string, @Res() response: Response): Promise<void> {
    // `send` answers ETag and Last-Modified, and 304 to a revalidation (`max-age=0`).
    response.sendFile(await this.page.assetPath(file));
  }
}
