import { Injectable } from '@nestjs/common';
import { AppError } from '@rt/errors';
import { Clock } from '../common/clock';
import { OrganizationsService } from '../organizations/organizations.service';
import type { Measure } from './capacity-algebra';
import {
  assembleTours,
  ClosedDays,
  ClosureInput,
  datesFrom,
  Demand,
  DemandInput,
  evaluationWindow,
  largestDayNumber,
  regionOnDates,
  TourInput,
} from './capacity-inputs';
import { capacityRangeOf } from './capacity-range';
import { CapacityRepository } from './capacity.repository';
import { CapacityQueryDto } from './dto/capacity-query.dto';
import { MeasureDto } from './dto/measure.response';
import { RegionCapacityRangeResponseDto } from './dto/region-capacity-range.response';
import { RegionCapacityResponseDto } from './dto/region-capacity.response';

/** What the roll-up reads for a region and a range of departure dates (the database part). */
export interface CapacityInputs {
  tours: TourInput[];
  closures: ClosureInput[];
  demand: DemandInput[];
}

const toMeasure = (measure: Measure): MeasureDto => ({ value: measure.value, exactness: measure.exactness });

export const notARegion = () => AppError.notFound('Region not found.');

/**
 * The daily capacity roll-up of a region (docs/decisions.md D-42, D-43; the model in
 * docs/capacity.md): the inputs in a fixed number of statements (CapacityRepository), assembled
 * per date (capacity-inputs.ts), rolled up by the algebra (capacity-algebra.ts).
 */
@Injectable()
export class CapacityService {
  constructor(
    private readonly capacity: CapacityRepository,
    private readonly organizations: OrganizationsService,
    private readonly clock: Clock,
  ) {}

  /** One date (`date`, today in Europe/Zurich by default) or the range form (`from` + `to`). */
  async rollUp(
    organizationId: string,
    query: CapacityQueryDto,
  ): Promise<RegionCapacityResponseDto | RegionCapacityRangeResponseDto> {
    const range = capacityRangeOf(query, this.clock.now());
    const regionId = organizationId.toLowerCase();
    const [type, inputs] = await Promise.all([
      this.organizations.findType(regionId),
      this.readInputs(regionId, range.from, range.to),
    ]);
    if (type !== 'region') throw notARegion();
    const days = this.daysOf(regionId, inputs, range.from, range.to);
    if (range.single) return days[0];
    return { organization_id: regionId, from: range.from, to: range.to, days };
  }

  /**
   * The database part, for the region's departures from `from` through `to`: its active tours
   * (one statement), then their steps with plans and activities, the closures that overlap the
   * evaluation window and the demand per tour and day (three statements at once). Four
   * statements, whatever the number of tours, steps and days. The benchmark times it alone.
   */
  async readInputs(regionId: string, from: string, to: string): Promise<CapacityInputs> {
    const tours = await this.capacity.findActiveTours(regionId);
    if (tours.length === 0) return { tours: [], closures: [], demand: [] };
    const ids = tours.map((tour) => tour.tourId);
    const [rows, closures, demand] = await Promise.all([
      this.capacity.findStepPlans(ids),
      this.capacity.findClosures(ids, from, to),
      this.capacity.findDemand(ids, from, to),
    ]);
    return { tours: assembleTours(tours, rows), closures, demand };
  }

  private daysOf(
    regionId: string,
    inputs: CapacityInputs,
    from: string,
    to: string,
  ): RegionCapacityResponseDto[] {
    const window = evaluationWindow(from, to, largestDayNumber(inputs.tours));
    const days = regionOnDates(
      inputs.tours,
      datesFrom(from, to),
      new ClosedDays(inputs.closures, window),
      new Demand(inputs.demand),
    );
    return days.map(({ date, rollUp }) => ({
      organization_id: regionId,
      date,
      capacity: toMeasure(rollUp.capacity),
      saturation: toMeasure(rollUp.saturation),
      tours: rollUp.tours.map((tour) => ({
        tour_id: tour.tourId,
        name: tour.name,
        capacity: toMeasure(tour.capacity),
        saturation: toMeasure(tour.saturation),
        unplaceable_steps_count: tour.unplaceableStepsCount,
      })),
    }));
  }
}
