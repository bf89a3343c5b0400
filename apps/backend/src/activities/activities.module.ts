import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ImagesModule } from '../images/images.module';
import { ProvidersModule } from '../providers/providers.module';
import { TagsModule } from '../tags/tags.module';
import { ActivitiesController } from './activities.controller';
import { ActivitiesRepository } from './activities.repository';
import { ActivitiesService } from './activities.service';
import { ActivityClosure } from './activity-closure.entity';
import { ActivityClosuresController } from './activity-closures.controller';
import { ActivityClosuresRepository } from './activity-closures.repository';
import { ActivityClosuresService } from './activity-closures.service';
import { ActivityTag } from './activity-tag.entity';
import { Activity } from './activity.entity';

/**
 * Activities (`activities`, `activity_tags`) and their closures (`activity_closures`). Exports
 * its services only: tours check activity ids and embed activities through ActivitiesService.
 * Images (existence of `image_id`, the variants map) through ImagesService.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Activity, ActivityTag, ActivityClosure]),
    ProvidersModule,
    TagsModule,
    ImagesModule,
  ],
  controllers: [ActivitiesController, ActivityClosuresController],
  providers: [ActivitiesRepository, ActivitiesService, ActivityClosuresRepository, ActivityClosuresService],
  exports: [ActivitiesService, ActivityClosuresService],
})
export class ActivitiesModule {}
