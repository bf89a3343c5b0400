import { Injectable } from '@nestjs/common';
import { AppError } from '@rt/errors';
import { isUUID } from 'class-validator';
import { ActivitiesService } from '../activities/activities.service';
import { malformedIdProblems, unknownIdProblems } from '../activities/id-list';
import { Transactions } from '../database/transactions';
import { CreateTourStepDto } from './dto/create-tour-step.dto';
import { ReorderTourStepsDto } from './dto/reorder-tour-steps.dto';
import { TourStepResponseDto } from './dto/tour-step.response';
import { UpdateTourStepDto } from './dto/update-tour-step.dto';
import { newStepOrder, stepChanges } from './step-changes';
import { toStoredTime } from './step-time';
import { StepFields, StepView, TourStepsRepository } from './tour-steps.repository';
import { toTourStepResponse } from './tour.mapper';
import { ToursRepository } from './tours.repository';
import { tourNotFound } from './tours.service';

const stepNotFound = () => AppError.notFound('Step not found.');

/**
 * Steps of a tour. Every change locks the tour's row first, so the positions (1..n) of one tour
 * change one request at a time. `activity_ids` is the plan order: malformed or repeated ids are
 * refused before any lookup, unknown ones after (422 on `activity_ids.N`). The tour id comes as a
 * UUID (the controllers' ResourceId); a step id is checked here, after the tour, so that an unknown
 * tour answers its own 404 whatever the step id.
 */
@Injectable()
export class TourStepsService {
  constructor(
    private readonly tours: ToursRepository,
    private readonly steps: TourStepsRepository,
    private readonly activities: ActivitiesService,
    private readonly transactions: Transactions,
  ) {}

  async create(tourId: string, dto: CreateTourStepDto): Promise<TourStepResponseDto> {
    if (dto.activity_ids)
      AppError.throwIfInvalid(
        malformedIdProblems('activity_ids', dto.activity_ids, { refuseDuplicates: true }),
      );
    const stepId = await this.transactions.run(async () => {
      await this.lockTour(tourId);
      if (dto.activity_ids) await this.checkActivities(dto.activity_ids);
      const id = await this.steps.append(tourId, {
        dayNumber: dto.day_number ?? null,
        time: dto.time ? toStoredTime(dto.time) : null,
      });
      if (dto.activity_ids) await this.steps.replacePlans(id, dto.activity_ids);
      return id;
    });
    return this.details(tourId, stepId);
  }

  async details(tourId: string, stepId: string): Promise<TourStepResponseDto> {
    const step = await this.findStep(tourId, stepId);
    return this.toResponse(step);
  }

  /** The fields sent; `activity_ids` replaces the plans (`[]` clears; absent keeps them). */
  async update(tourId: string, stepId: string, dto: UpdateTourStepDto): Promise<TourStepResponseDto> {
    if (dto.activity_ids)
      AppError.throwIfInvalid(
        malformedIdProblems('activity_ids', dto.activity_ids, { refuseDuplicates: true }),
      );
    await this.transactions.run(async () => {
      await this.lockTour(tourId);
      await this.findStep(tourId, stepId);
      if (dto.activity_ids) await this.checkActivities(dto.activity_ids);
      const changes = stepChanges(dto);
      if (Object.keys(changes).length > 0 || dto.activity_ids) await this.steps.update(stepId, changes);
      if (dto.activity_ids) await this.steps.replacePlans(stepId, dto.activity_ids);
    });
    return this.details(tourId, stepId);
  }

  /** Deletes the step and its plans; the steps after it move up one place. */
  async delete(tourId: string, stepId: string): Promise<void> {
    await this.transactions.run(async () => {
      await this.lockTour(tourId);
      if (!isUUID(stepId) || !(await this.steps.delete(tourId, stepId))) throw stepNotFound();
    });
  }

  /** `step_ids` must be a permutation of the tour's steps (else 422); answers the steps in order. */
  async reorder(tourId: string, dto: ReorderTourStepsDto): Promise<TourStepResponseDto[]> {
    await this.transactions.run(async () => {
      await this.lockTour(tourId);
      const current = await this.steps.findIdsOfTour(tourId);
      const wanted = newStepOrder(dto.step_ids, current);
      if (wanted === null) {
        throw AppError.validation({
          step_ids: ["The step ids field must list each of the tour's steps exactly once."],
        });
      }
      await this.steps.setOrder(tourId, wanted);
    });
    const steps = await this.steps.findOfTour(tourId);
    const activities = await this.activities.findResources([...new Set(steps.flatMap((s) => s.activityIds))]);
    return steps.map((step) => toTourStepResponse(step, activities));
  }

  /** Creates a step for the demo seed or the benchmark (ids already checked). */
  seed(tourId: string, fields: StepFields, activityIds: string[]): Promise<string> {
    return this.transactions.run(async () => {
      const id = await this.steps.append(tourId, fields);
      await this.steps.replacePlans(id, activityIds);
      return id;
    });
  }

  private async lockTour(tourId: string): Promise<void> {
    if (!(await this.tours.findByIdForUpdate(tourId))) throw tourNotFound();
  }

  private async findStep(tourId: string, stepId: string): Promise<StepView> {
    const step = isUUID(stepId) ? await this.steps.findOne(tourId, stepId) : null;
    if (step) return step;
    if (!(await this.tours.findById(tourId))) throw tourNotFound();
    throw stepNotFound();
  }

  private async checkActivities(ids: string[]): Promise<void> {
    const existing = await this.activities.findExistingIds(ids);
    AppError.throwIfInvalid(unknownIdProblems('activity_ids', ids, existing));
  }

  private async toResponse(step: StepView): Promise<TourStepResponseDto> {
    return toTourStepResponse(step, await this.activities.findResources(step.activityIds));
  }
}
