import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivationCodesModule } from '../activation-codes/activation-codes.module';
import { Trip } from './trip.entity';
import { TripsController } from './trips.controller';
import { TripsRepository } from './trips.repository';
import { TripsService } from './trips.service';

/**
 * Trips (`trips`): a traveller starts a tour on an activation code they claimed. The code moves
 * through ActivationCodesService; tours are read (status, days) by the repository. The capacity
 * roll-up reads `trips` for its demand. Exports its service only.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Trip]), ActivationCodesModule],
  controllers: [TripsController],
  providers: [TripsRepository, TripsService],
  exports: [TripsService],
})
export class TripsModule {}
