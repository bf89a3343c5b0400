import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Page } from '@rt/contracts';
import { In, Repository } from 'typeorm';
import { touchedAny, updateById } from '../database/row-statements';
import { TransactionalRepository } from '../database/transactions';
import { Tag, TagType } from './tag.entity';

export interface TagFields {
  type: TagType;
  nameFr: string;
  nameEn: string | null;
  nameDe: string | null;
  icon: string;
}

/** The one writer of `tags`; other features go through TagsService. */
@Injectable()
export class TagsRepository extends TransactionalRepository<Tag> {
  constructor(@InjectRepository(Tag) plain: Repository<Tag>) {
    super(plain);
  }

  /** One page by type, French name, id (tags_type_name_idx), and the filtered count. */
  findPage(type: TagType | undefined, page: Page): Promise<[Tag[], number]> {
    return this.repo.findAndCount({
      where: type ? { type } : {},
      order: { type: 'ASC', nameFr: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.limit,
    });
  }

  findById(id: string): Promise<Tag | null> {
    return this.repo.findOneBy({ id });
  }

  /** The ids among `ids` that name a tag. */
  async findExistingIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.repo.find({ select: { id: true }, where: { id: In(ids) } });
    return new Set(found.map((t) => t.id));
  }

  create(fields: TagFields): Promise<Tag> {
    return this.repo.save(this.repo.create(fields));
  }

  /** Applies the changes; false when the tag does not exist. */
  update(id: string, changes: Partial<TagFields>): Promise<boolean> {
    return updateById(this.repo, id, changes);
  }

  /** Deletes the tag; its links to activities go with it (activity_tags, ON DELETE CASCADE). */
  async delete(id: string): Promise<boolean> {
    return touchedAny(await this.repo.delete({ id }));
  }

  /** Whether any tag exists (the demo seed). */
  exists(): Promise<boolean> {
    return this.repo.exists();
  }
}
