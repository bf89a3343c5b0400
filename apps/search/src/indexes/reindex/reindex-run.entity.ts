import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type ReindexStatus = 'succeeded' | 'failed' | 'refused';
export type ReindexTrigger = 'http' | 'startup' | 'cli';

/** One finished reindex: what it read, what it changed, or why it changed nothing. */
@Entity('reindex_runs')
@Index('reindex_runs_status_finished_at_idx', ['status', 'finishedAt'])
export class ReindexRun {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id!: number;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz' })
  finishedAt!: Date;

  @Column({ type: 'varchar', length: 16 })
  status!: ReindexStatus;

  @Column({ name: 'triggered_by', type: 'varchar', length: 16 })
  triggeredBy!: ReindexTrigger;

  @Column({ type: 'boolean', default: false })
  forced!: boolean;

  /** The source without credentials or query string. */
  @Column({ type: 'text' })
  source!: string;

  @Column({ name: 'embedding_model', type: 'text' })
  embeddingModel!: string;

  @Column({ name: 'embedding_dimension', type: 'integer' })
  embeddingDimension!: number;

  @Column({ type: 'integer', default: 0 })
  inserted!: number;

  @Column({ type: 'integer', default: 0 })
  updated!: number;

  @Column({ type: 'integer', default: 0 })
  unchanged!: number;

  @Column({ type: 'integer', default: 0 })
  removed!: number;

  @Column({ type: 'integer', default: 0 })
  invalid!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;
}
