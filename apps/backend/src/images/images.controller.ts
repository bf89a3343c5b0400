import { Controller, HttpCode, Post, Req, UseInterceptors } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorResponseDto } from '@rt/contracts';
import { AcceptsFiles } from '@rt/platform';
import type { Request } from 'express';
import type { AuthUser } from '../access/access';
import { CurrentUser, ViewingAs } from '../access/access.decorators';
import { ApiUploadBodyErrors } from '../common/api-responses';
import { RateLimit } from '../throttling/rate-limit.decorator';
import { ImageResponseDto } from './dto/image.response';
import { IMAGE_FIELD, ImageUploadInterceptor } from './image-upload.interceptor';
import { ImagesService } from './images.service';

@ApiTags('images')
@Controller('images')
export class ImagesController {
  constructor(private readonly images: ImagesService) {}

  @Post()
  @HttpCode(201)
  @ViewingAs()
  @RateLimit('images')
  @AcceptsFiles()
  @UseInterceptors(ImageUploadInterceptor)
  @ApiOperation({
    operationId: 'uploadImage',
    summary: 'Upload an image',
    description:
      'multipart/form-data with one file in the field `image`: JPEG, PNG or WebP judged by its content ' +
      '(not its name or declared type), at most 10,485,760 bytes. The stored original is turned upright ' +
      'from its EXIF orientation and has no metadata (GPS included). Refused files → 422 on `image` ' +
      '(missing, too large, another type, renamed or forged, corrupt or truncated, too many pixels); ' +
      'a width, height or aspect ratio past its limit (read from the header, before decoding; by ' +
      'default 12,000 pixels a side, 20:1) → 422 on `image` with `reason` `image_too_wide`, ' +
      '`image_too_tall` or `image_aspect_ratio`; a malformed multipart body → 400 `bad_request`. ' +
      'Nothing is stored after a refusal.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: [IMAGE_FIELD],
      properties: { [IMAGE_FIELD]: { type: 'string', format: 'binary' } },
    },
  })
  @ApiCreatedResponse({ type: ImageResponseDto, description: 'The image, with its signed URLs.' })
  @ApiUploadBodyErrors()
  @ApiResponse({
    status: 503,
    type: ErrorResponseDto,
    description:
      '`service_unavailable`: too many images are waiting to be decoded on this server ' +
      '(IMAGE_QUEUE_LIMIT); try again after `Retry-After` seconds. Nothing was stored.',
  })
  upload(@CurrentUser() user: AuthUser, @Req() req: Request): Promise<ImageResponseDto> {
    return this.images.upload(req.file?.buffer, user.id);
  }
}
