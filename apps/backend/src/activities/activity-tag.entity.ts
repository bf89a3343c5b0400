import { Entity, Index, PrimaryColumn } from 'typeorm';
import {} from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Tag } from '../tags/tag.entity';
import { Activity } from './activity.entity';

/** A tag on an activity. Deleting the tag (tags feature) removes its links: ON DELETE CASCADE. */
@Entity('activity_tags')
@Index('activity_tags_tag_idx', ['tagId'])
export class ActivityTag {
  @PrimaryColumn({ name: 'activity_id', type: 'uuid' })
  activityId!: string;

  @PrimaryColumn({ name: 'tag_id', type: 'uuid' })
  tagId!: string;

  @BelongsTo(() => Activity, 'activity_id', 'CASCADE')
  activity?: Activity;

  @BelongsTo(() => Tag, 'tag_id', 'CASCADE')
  tag?: Tag;
}
