import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { AppError, ErrorCode } from '@rt/errors';
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import type { Observable } from 'rxjs';
import { imageRefused, MAX_IMAGE_BYTES } from './images.service';

export const IMAGE_FIELD = 'image';

/**
 * Reads the one file of `POST /images` (field `image`) with multer, in memory and never past
 * MAX_IMAGE_BYTES: a larger file is cut off while it streams (multer stops reading it). Every
 * refusal is an answer in the envelope: too large or a file in another field → 422 on `image`;
 * a body that is not well-formed multipart → 400 `bad_request`.
 */
@Injectable()
export class ImageUploadInterceptor implements NestInterceptor {
  private readonly readFile = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 50 },
  }).single(IMAGE_FIELD);

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    await new Promise<void>((resolve, reject) => {
      this.readFile(http.getRequest<Request>(), http.getResponse<Response>(), (error: unknown) =>
        error ? reject(refusalOf(error)) : resolve(),
      );
    });
    return next.handle();
  }
}

function refusalOf(error: unknown): AppError {
  if (error instanceof MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') return imageRefused('too-large');
    if (error.code === 'LIMIT_UNEXPECTED_FILE' || error.code === 'LIMIT_FILE_COUNT') {
      return AppError.validation({ image: ['Send exactly one file, in the field "image".'] });
    }
    return AppError.validation({ image: [`The upload was refused: ${error.message}.`] });
  }
  return new AppError(ErrorCode.BadRequest, 'The multipart body is malformed.');
}
