import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Page } from '@rt/contracts';
import { pageWithTotalSql, splitPage } from '@rt/database';
import { In, Repository } from 'typeorm';
import { findByIdForUpdate } from '../database/row-statements';
import { transactional } from '../database/transactions';
import { ActivityTag } from './activity-tag.entity';
import { Activity } from './activity.entity';

export interface ActivityFields {
  providerId: string;
  name: string;
  imageId: string | null;
  capacity: number | null;
  unlimited: boolean;
}

/** An activity as its resource shows it: its row and its tag ids (registry order). */
export interface ActivityView extends ActivityFields {
  id: string;
  tagIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface ActivityFilter {
  /** An ILIKE pattern (`%…%`), or null. */
  namePattern: string | null;
  providerId: string | null;
  /** Activities carrying any of these tags; null: no tag filter. */
  tagIds: string[] | null;
}

interface ViewRow {
  id: string;
  provider_id: string;
  name: string;
  image_id: string | null;
  capacity: number | null;
  unlimited: boolean;
  created_at: Date;
  updated_at: Date;
  tag_ids: string[];
}

/** The resource's columns, with the tag ids in the registry's order (tags_type_name_idx). */
const VIEW_COLUMNS = `a.id, a.provider_id, a.name, a.image_id, a.capacity, a.unlimited, a.created_at, a.updated_at,
  ARRAY(SELECT x.tag_id FROM activity_tags x JOIN tags t ON t.id = x.tag_id
         WHERE x.activity_id = a.id ORDER BY t.type, t.name_fr, t.id) AS tag_ids`;

const FILTER = `($1::text IS NULL OR a.name ILIKE $1)
  AND ($2::uuid IS NULL OR a.provider_id = $2)
  AND ($3::uuid[] IS NULL OR EXISTS (SELECT 1 FROM activity_tags f WHERE f.activity_id = a.id AND f.tag_id = ANY($3::uuid[])))`;

const toView = (row: ViewRow): ActivityView => ({
  id: row.id,
  providerId: row.provider_id,
  name: row.name,
  imageId: row.image_id,
  capacity: row.capacity,
  unlimited: row.unlimited,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  tagIds: row.tag_ids,
});

/** The one writer of `activities` and `activity_tags`; other features go through ActivitiesService. */
@Injectable()
export class ActivitiesRepository {
  constructor(
    @InjectRepository(Activity) private readonly plainActivities: Repository<Activity>,
    @InjectRepository(ActivityTag) private readonly plainTags: Repository<ActivityTag>,
  ) {}

  private get activities(): Repository<Activity> {
    return transactional(this.plainActivities);
  }

  private get activityTags(): Repository<ActivityTag> {
    return transactional(this.plainTags);
  }

  /**
   * One page by name then id (activities_name_idx, or activities_provider_name_idx with a
   * provider) and the filtered count, in one statement.
   */
  async findPage(filter: ActivityFilter, page: Page): Promise<[ActivityView[], number]> {
    const sql = pageWithTotalSql({
      counted: `activities a WHERE ${FILTER}`,
      page: `SELECT ${VIEW_COLUMNS} FROM activities a WHERE ${FILTER}
              ORDER BY a.name, a.id LIMIT $4 OFFSET $5`,
      values: [filter.namePattern, filter.providerId, filter.tagIds, page.limit, page.offset],
    });
    const rows: (ViewRow & { total: number })[] = await this.activities.query(sql.text, sql.values);
    const { items, total } = splitPage(rows, toView);
    return [items, total];
  }

  /** The views of these activities (any order; unknown ids are left out), in one query. */
  async findViews(ids: string[]): Promise<ActivityView[]> {
    if (ids.length === 0) return [];
    const rows: ViewRow[] = await this.activities.query(
      `SELECT ${VIEW_COLUMNS} FROM activities a WHERE a.id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map(toView);
  }

  /** The activity, its row locked until the transaction ends (concurrent updates in turn). */
  findByIdForUpdate(id: string): Promise<Activity | null> {
    return findByIdForUpdate(this.activities, 'a', id);
  }

  /** The ids among `ids` that name an activity (lower-case). */
  async findExistingIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.activities.find({ select: { id: true }, where: { id: In(ids) } });
    return new Set(found.map((a) => a.id.toLowerCase()));
  }

  existsById(id: string): Promise<boolean> {
    return this.activities.existsBy({ id });
  }

  async create(fields: ActivityFields): Promise<string> {
    const saved = await this.activities.save(this.activities.create(fields));
    return saved.id;
  }

  async update(id: string, changes: Partial<ActivityFields>): Promise<void> {
    if (Object.keys(changes).length > 0) await this.activities.update({ id }, changes);
  }

  /** Replaces the activity's tags with `tagIds` (existing, distinct ids). */
  async replaceTags(activityId: string, tagIds: string[]): Promise<void> {
    await this.activityTags.delete({ activityId });
    if (tagIds.length > 0) await this.activityTags.insert(tagIds.map((tagId) => ({ activityId, tagId })));
  }

  /** Bumps `updated_at` (a change of tags only). */
  async touch(id: string): Promise<void> {
    await this.activities.update({ id }, { updatedAt: new Date() });
  }

  /** Whether any activity exists (the demo seed). */
  exists(): Promise<boolean> {
    return this.activities.exists();
  }
}
