import type { ActivityResponseDto } from '../activities/dto/activity.response';
import { TourDetailsResponseDto } from './dto/tour-details.response';
import { TourStepActivityDto } from './dto/tour-step-activity.response';
import { TourStepResponseDto } from './dto/tour-step.response';
import { TourResponseDto } from './dto/tour.response';
import { toWireTime } from './step-time';
import type { StepView } from './tour-steps.repository';
import type { Tour } from './tour.entity';

export const toTourResponse = (t: Tour): TourResponseDto => ({
  id: t.id,
  name: t.name,
  color: t.color,
  status: t.status,
  partner_organization_id: t.partnerOrganizationId,
  region_organization_id: t.regionOrganizationId ?? null,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});

/**
 * A step with its plans by priority; `activities` holds the resources of every activity the
 * steps name (ActivitiesService.findResources). The step's name is plan A's.
 */
export const toTourStepResponse = (
  step: StepView,
  activities: Map<string, ActivityResponseDto>,
): TourStepResponseDto => {
  const plans: TourStepActivityDto[] = step.activityIds.flatMap((id, index) => {
    const activity = activities.get(id);
    return activity ? [{ ...activity, priority: index + 1 }] : [];
  });
  return {
    id: step.id,
    tour_id: step.tourId,
    position: step.position,
    day_number: step.dayNumber,
    time: toWireTime(step.time),
    name: plans[0]?.name ?? null,
    activities: plans,
  };
};

export const toTourDetails = (
  tour: Tour,
  steps: StepView[],
  activities: Map<string, ActivityResponseDto>,
): TourDetailsResponseDto => ({
  ...toTourResponse(tour),
  steps: steps.map((step) => toTourStepResponse(step, activities)),
});
