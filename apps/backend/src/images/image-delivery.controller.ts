import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../access/access.decorators';
import { ImagesService } from './images.service';

/**
 * `GET /img/<signature>/<options>/plain/<id>.<ext>` at the host root (outside `/api`, see
 * http.ts), in imgproxy's URL format. Outside the contract: clients follow the URLs they are
 * given. The bytes behind a URL never change, so answers are cacheable forever and revalidate
 * with their ETag (304).
 */
@ApiExcludeController()
@Controller('img')
export class ImageDeliveryController {
  constructor(private readonly images: ImagesService) {}

  @Get('*path')
  @Public()
  async serve(@Req() req: Request, @Res() res: Response): Promise<void> {
    // The raw path, as it was signed (not decoded).
    const rawPath = (req.originalUrl.split('?')[0] ?? '').slice('/img'.length);
    const image = await this.images.serve(rawPath);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('ETag', image.etag);
    // Served to the apps of other origins (helmet's default would keep images same-origin).
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(image.etag)) {
      res.status(304).end();
      return;
    }
    res.setHeader('Content-Type', image.contentType);
    res.setHeader('Content-Length', String(image.data.length));
    res.status(200).end(req.method === 'HEAD' ? undefined : image.data);
  }
}
