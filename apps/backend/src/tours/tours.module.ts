import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivitiesModule } from '../activities/activities.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ProvidersModule } from '../providers/providers.module';
import { TagsModule } from '../tags/tags.module';
import { TourStepsController } from './tour-steps.controller';
import { TourStepsRepository } from './tour-steps.repository';
import { TourStepsService } from './tour-steps.service';
import { TourStepActivity } from './tour-step-activity.entity';
import { TourStep } from './tour-step.entity';
import { Tour } from './tour.entity';
import { ToursController } from './tours.controller';
import { ToursRepository } from './tours.repository';
import { ToursDemoSeed } from './tours-demo-seed';
import { ToursService } from './tours.service';

/**
 * Tours (`tours`), their steps (`tour_steps`) and plans (`tour_step_activities`). Activities
 * through ActivitiesService, partner and region checks through OrganizationsService; the demo
 * seed (ToursDemoSeed) also creates tags and providers through their services.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Tour, TourStep, TourStepActivity]),
    ActivitiesModule,
    OrganizationsModule,
    ProvidersModule,
    TagsModule,
  ],
  controllers: [ToursController, TourStepsController],
  providers: [ToursRepository, TourStepsRepository, ToursService, TourStepsService, ToursDemoSeed],
  exports: [ToursService, TourStepsService, ToursDemoSeed],
})
export class ToursModule {}
