import { Column, Entity, Index } from 'typeorm';
import {
  CreatedAtColumn,
  TimestampColumn,
  TokenHashColumn,
  UuidColumn,
  UuidPrimaryColumn,
} from '../database/columns';
import { BelongsTo } from '../database/relations';
import { User } from '../users/user.entity';

/**
 * A sign-in token bound to one device. The client holds `<id>|<secret>`; only the SHA-256 of the
 * secret is stored (src/access-tokens/access-token.ts). Revoking a token deletes its row.
 */
@Entity('personal_access_tokens')
@Index('personal_access_tokens_user_id_idx', ['userId'])
export class PersonalAccessToken {
  @UuidPrimaryColumn()
  id!: string;

  @UuidColumn('user_id')
  userId!: string;

  @Column({ name: 'device_name', type: 'varchar', length: 255 })
  deviceName!: string;

  /** Hex SHA-256 of the secret part. */
  @TokenHashColumn()
  tokenHash!: string;

  /** Written at most once a minute, so that a request does not always cost a write. */
  @TimestampColumn('last_used_at', { nullable: true })
  lastUsedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @BelongsTo(() => User, 'user_id', 'CASCADE')
  user?: User;
}
