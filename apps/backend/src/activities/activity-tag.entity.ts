import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
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

  @ManyToOne(() => Activity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'activity_id' })
  activity?: Activity;

  @ManyToOne(() => Tag, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tag_id' })
  tag?: Tag;
}
