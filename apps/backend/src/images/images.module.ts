import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MetricsModule } from '@rt/platform';
import { Image } from './image.entity';
import { ImageDeliveryController } from './image-delivery.controller';
import { ImageSettings } from './image.settings';
import { ImageStorage, LocalImageStorage, S3ImageStorage } from './image-storage';
import { ImageUploadInterceptor } from './image-upload.interceptor';
import { ImagesController } from './images.controller';
import { ImagesRepository } from './images.repository';
import { ImagesService } from './images.service';

export function imageStorageFor(settings: ImageSettings): ImageStorage {
  if (settings.IMAGE_STORAGE === 's3') {
    return new S3ImageStorage({
      bucket: settings.S3_BUCKET!,
      region: settings.S3_REGION,
      endpoint: settings.S3_ENDPOINT,
      forcePathStyle: settings.S3_FORCE_PATH_STYLE,
      accessKeyId: settings.S3_ACCESS_KEY_ID,
      secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
    });
  }
  return new LocalImageStorage(settings.imageDir);
}

/** Uploads, signed URLs and their delivery; other features ask ImagesService for variants maps. */
@Module({
  imports: [TypeOrmModule.forFeature([Image]), MetricsModule],
  controllers: [ImagesController, ImageDeliveryController],
  providers: [
    ImagesRepository,
    ImagesService,
    ImageUploadInterceptor,
    { provide: ImageStorage, inject: [ImageSettings], useFactory: imageStorageFor },
  ],
  exports: [ImagesService],
})
export class ImagesModule {}
