import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MetricsModule } from '@rt/platform';
import { BACKEND_CONFIG, type BackendConfig } from '../config';
import { Image } from './image.entity';
import { ImageDeliveryController } from './image-delivery.controller';
import { ImageStorage, LocalImageStorage, S3ImageStorage } from './image-storage';
import { ImageUploadInterceptor } from './image-upload.interceptor';
import { ImagesController } from './images.controller';
import { ImagesRepository } from './images.repository';
import { ImagesService } from './images.service';

export function imageStorageFor(config: BackendConfig): ImageStorage {
  if (config.IMAGE_STORAGE === 's3') {
    return new S3ImageStorage({
      bucket: config.S3_BUCKET!,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    });
  }
  return new LocalImageStorage(config.imageDir);
}

/** Uploads, signed URLs and their delivery; other features ask ImagesService for variants maps. */
@Module({
  imports: [TypeOrmModule.forFeature([Image]), MetricsModule],
  controllers: [ImagesController, ImageDeliveryController],
  providers: [
    ImagesRepository,
    ImagesService,
    ImageUploadInterceptor,
    { provide: ImageStorage, inject: [BACKEND_CONFIG], useFactory: imageStorageFor },
  ],
  exports: [ImagesService],
})
export class ImagesModule {}
