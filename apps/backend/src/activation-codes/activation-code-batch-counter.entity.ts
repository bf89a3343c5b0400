import { Column, Entity, PrimaryColumn } from 'typeorm';
import {} from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Organization } from '../organizations/organization.entity';

/**
 * The last batch number of each organization. A generation increments its organization's row
 * (`INSERT … ON CONFLICT DO UPDATE … RETURNING`) inside its transaction: the row stays locked until
 * the commit, so two generations for one organization take 1 and 2 (never the same number), and a
 * generation that rolls back gives its number back (no gap). The foreign key also tells a
 * generation for an unknown organization.
 */
@Entity('activation_code_batch_counters')
export class ActivationCodeBatchCounter {
  @PrimaryColumn({ name: 'organization_id', type: 'uuid' })
  organizationId!: string;

  @Column({ name: 'last_batch_number', type: 'integer' })
  lastBatchNumber!: number;

  @BelongsTo(() => Organization, 'organization_id', 'CASCADE')
  organization?: Organization;
}
