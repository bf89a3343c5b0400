import type { ImageVariantsDto } from '../images/dto/image-variants.response';
import type { ActivityClosure } from './activity-closure.entity';
import type { ActivityView } from './activities.repository';
import { ActivityClosureResponseDto } from './dto/activity-closure.response';
import { ActivityResponseDto } from './dto/activity.response';

export const toActivityResponse = (a: ActivityView, image: ImageVariantsDto | null): ActivityResponseDto => ({
  id: a.id,
  name: a.name,
  provider_id: a.providerId,
  image_id: a.imageId,
  image,
  tags: a.tagIds,
  capacity: a.capacity,
  unlimited: a.unlimited,
  created_at: a.createdAt.toISOString(),
  updated_at: a.updatedAt.toISOString(),
});

export const toActivityClosureResponse = (c: ActivityClosure): ActivityClosureResponseDto => ({
  id: c.id,
  activity_id: c.activityId,
  starts_on: c.startsOn,
  ends_on: c.endsOn,
  reason: c.reason,
  created_at: c.createdAt.toISOString(),
});
