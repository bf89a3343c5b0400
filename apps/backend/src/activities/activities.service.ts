import { Injectable } from '@nestjs/common';
import { LIST_PAGE_RULES, paginated, Paginated, toPage } from '@rt/contracts';
import { AppError, FieldErrors } from '@rt/errors';
import { isUUID } from 'class-validator';
import { Transactions } from '../database/transactions';
import { ImagesService } from '../images/images.service';
import { containsPattern } from '../providers/dto/search-field';
import { ProvidersService } from '../providers/providers.service';
import { TagsService } from '../tags/tags.service';
import { ActivitiesRepository, ActivityFields, ActivityView } from './activities.repository';
import { activityChanges, unlimitedWithCapacityProblem } from './activity-changes';
import { toActivityResponse } from './activity.mapper';
import { ActivitiesQueryDto } from './dto/activities-query.dto';
import { ActivityResponseDto } from './dto/activity.response';
import { CreateActivityDto } from './dto/create-activity.dto';
import { UpdateActivityDto } from './dto/update-activity.dto';
import { distinctIds, malformedIdProblems, unknownIdProblems } from './id-list';

export const activityNotFound = () => AppError.notFound('Activity not found.');

/**
 * Activities: shared rows, created and updated by super-admins, never deleted. Other features ask
 * it which activity ids exist and for their resources (tours embed them in steps).
 */
@Injectable()
export class ActivitiesService {
  constructor(
    private readonly activities: ActivitiesRepository,
    private readonly providers: ProvidersService,
    private readonly tags: TagsService,
    private readonly images: ImagesService,
    private readonly transactions: Transactions,
  ) {}

  /** `GET /tour/activities`: by name then id; per_page capped silently at 100. */
  async list(query: ActivitiesQueryDto): Promise<Paginated<ActivityResponseDto>> {
    const page = toPage(query, LIST_PAGE_RULES);
    const [views, total] = await this.activities.findPage(
      {
        namePattern: query.search !== undefined ? containsPattern(query.search) : null,
        providerId: query.provider_id ?? null,
        tagIds: query.tag_ids ?? null,
      },
      page,
    );
    return paginated(await this.toResponses(views), total, page);
  }

  async details(id: string): Promise<ActivityResponseDto> {
    const [view] = await this.activities.findViews([id]);
    if (!view) throw activityNotFound();
    return toActivityResponse(view, await this.images.variantsOfId(view.imageId));
  }

  /** `POST /tour/activity`: the provider and the tags must exist (else 422 on the field). */
  async create(dto: CreateActivityDto): Promise<ActivityResponseDto> {
    const tagIds = dto.tags ?? [];
    AppError.throwIfInvalid(malformedIdProblems('tags', tagIds, { refuseDuplicates: false }));
    await this.checkReferences(dto.provider_id, tagIds, dto.image_id);
    const id = await this.transactions.run(async () => {
      const created = await this.activities.create({
        providerId: dto.provider_id,
        name: dto.name,
        imageId: dto.image_id ?? null,
        capacity: dto.capacity ?? null,
        unlimited: dto.unlimited ?? false,
      });
      await this.activities.replaceTags(created, distinctIds(tagIds));
      return created;
    });
    return this.details(id);
  }

  /**
   * `PUT /tour/activity/{id}`: the fields sent. The result may not be unlimited with a capacity:
   * `unlimited: true` alone on an activity with a capacity is refused (422 on `capacity`), and
   * nothing changes.
   */
  async update(id: string, dto: UpdateActivityDto): Promise<ActivityResponseDto> {
    if (dto.tags !== undefined)
      AppError.throwIfInvalid(malformedIdProblems('tags', dto.tags, { refuseDuplicates: false }));
    await this.transactions.run(async () => {
      const activity = await this.activities.findByIdForUpdate(id);
      if (!activity) throw activityNotFound();
      await this.checkReferences(dto.provider_id, dto.tags ?? [], dto.image_id);
      const problem = unlimitedWithCapacityProblem(activity, dto);
      if (problem !== null) throw AppError.validation({ capacity: [problem] });
      const changes = activityChanges(dto);
      await this.activities.update(id, changes);
      if (dto.tags !== undefined) {
        await this.activities.replaceTags(id, distinctIds(dto.tags));
        if (Object.keys(changes).length === 0) await this.activities.touch(id);
      }
    });
    return this.details(id);
  }

  /** The ids among `ids` that name an activity, lower-cased (tours check their `activity_ids`). */
  findExistingIds(ids: string[]): Promise<Set<string>> {
    return this.activities.findExistingIds(ids);
  }

  /** The resources of these activities by id, in one query (tours embed them in their steps). */
  async findResources(ids: string[]): Promise<Map<string, ActivityResponseDto>> {
    const views = await this.activities.findViews(ids);
    const responses = await this.toResponses(views);
    return new Map(responses.map((response) => [response.id, response]));
  }

  /** Whether `id` names an activity (closures answer 404 otherwise). */
  exists(id: string): Promise<boolean> {
    return isUUID(id) ? this.activities.existsById(id) : Promise.resolve(false);
  }

  /** Creates an activity with its tags for the demo seed and answers its id. */
  seed(fields: ActivityFields, tagIds: string[]): Promise<string> {
    return this.transactions.run(async () => {
      const id = await this.activities.create(fields);
      await this.activities.replaceTags(id, tagIds);
      return id;
    });
  }

  /** Whether any activity exists (the demo seed). */
  anyExists(): Promise<boolean> {
    return this.activities.exists();
  }

  /** The resources with their images' variants maps (one query for all the images). */
  private async toResponses(views: ActivityView[]): Promise<ActivityResponseDto[]> {
    const variants = await this.images.variantsOfIds(views.map((view) => view.imageId));
    return views.map((view) =>
      toActivityResponse(view, view.imageId ? (variants.get(view.imageId) ?? null) : null),
    );
  }

  private async checkReferences(
    providerId: string | undefined,
    tagIds: string[],
    imageId: string | null | undefined,
  ): Promise<void> {
    const problems: FieldErrors = {};
    if (imageId !== undefined && imageId !== null && !(await this.images.exists(imageId))) {
      problems.image_id = ['The selected image id is invalid.'];
    }
    if (providerId !== undefined && !(await this.providers.exists(providerId))) {
      problems.provider_id = ['The selected provider id is invalid.'];
    }
    if (tagIds.length > 0) {
      const existing = await this.tags.findExistingIds(distinctIds(tagIds));
      const lowered = new Set([...existing].map((id) => id.toLowerCase()));
      Object.assign(problems, unknownIdProblems('tags', tagIds, lowered));
    }
    AppError.throwIfInvalid(problems);
  }
}
