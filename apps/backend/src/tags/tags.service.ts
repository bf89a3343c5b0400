import { Injectable } from '@nestjs/common';
import { paginated, Paginated, TAG_PAGE_RULES, toPage } from '@rt/contracts';
import { AppError } from '@rt/errors';
import { CreateTagDto } from './dto/create-tag.dto';
import { TagResponseDto } from './dto/tag.response';
import { TagsQueryDto } from './dto/tags-query.dto';
import { UpdateTagDto } from './dto/update-tag.dto';
import { tagChanges, tagNameFields } from './tag-changes';
import { toTagResponse } from './tag.mapper';
import { TagFields, TagsRepository } from './tags.repository';

export const tagNotFound = () => AppError.notFound('Tag not found.');

/**
 * The tag registry: four vocabularies, read by any signed-in hat, written by super-admins. Other
 * features ask it which tag ids exist (activities).
 */
@Injectable()
export class TagsService {
  constructor(private readonly tags: TagsRepository) {}

  /** `GET /tags`: by type, French name, id; per_page capped silently at 1000. */
  async list(query: TagsQueryDto): Promise<Paginated<TagResponseDto>> {
    const page = toPage(query, TAG_PAGE_RULES);
    const [tags, total] = await this.tags.findPage(query.type, page);
    return paginated(tags.map(toTagResponse), total, page);
  }

  async create(dto: CreateTagDto): Promise<TagResponseDto> {
    const tag = await this.tags.create({ type: dto.type, ...tagNameFields(dto.names), icon: dto.icon });
    return toTagResponse(tag);
  }

  /** `PUT /tags/{id}`: the fields sent; `names` replaces the three names together. */
  async update(id: string, dto: UpdateTagDto): Promise<TagResponseDto> {
    if (!(await this.tags.update(id, tagChanges(dto)))) throw tagNotFound();
    const tag = await this.tags.findById(id);
    if (!tag) throw tagNotFound();
    return toTagResponse(tag);
  }

  /** `DELETE /tags/{id}`: the tag and its links to activities (the activities stay). */
  async delete(id: string): Promise<void> {
    if (!(await this.tags.delete(id))) throw tagNotFound();
  }

  /** The ids among `ids` that name a tag (activities check their `tags`). */
  findExistingIds(ids: string[]): Promise<Set<string>> {
    return this.tags.findExistingIds(ids);
  }

  /** Creates a tag for the demo seed and answers its id. */
  async seed(fields: TagFields): Promise<string> {
    return (await this.tags.create(fields)).id;
  }

  /** Whether the registry holds any tag (the demo seed). */
  anyExists(): Promise<boolean> {
    return this.tags.exists();
  }
}
