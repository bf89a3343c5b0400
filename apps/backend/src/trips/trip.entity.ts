import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { ActivationCode } from '../activation-codes/activation-code.entity';
import { CreatedAtColumn, UuidColumn, UuidPrimaryColumn } from '../database/columns';
import { BelongsTo } from '../database/relations';
import { Tour } from '../tours/tour.entity';
import { User } from '../users/user.entity';

/**
 * A trip: a traveller starts a tour on an activation code they claimed, on a departure day, for a
 * number of travellers. One trip per code (the code is used by it). `ends_on` is the date of the
 * tour's last dated step at the start (starts_on + largest day_number − 1; starts_on when the
 * tour has no dated step); the same window is stored on the code, which is active while it runs.
 *
 * The capacity roll-up reads the travellers per tour and departure day
 * (trips_tour_starts_on_idx, which covers that sum). A deleted tour or user leaves the trip (the
 * code stays used): the link becomes null.
 */
@Entity('trips')
@Check('trips_travellers_check', `"travellers" >= 1`)
@Check('trips_window_check', `"ends_on" >= "starts_on"`)
@Unique('trips_activation_code_unique', ['activationCodeId'])
@Index('trips_tour_starts_on_idx', ['tourId', 'startsOn', 'travellers'])
@Index('trips_user_created_idx', ['userId', 'createdAt', 'id'])
export class Trip {
  @UuidPrimaryColumn()
  id!: string;

  @UuidColumn('activation_code_id')
  activationCodeId!: string;

  /** The traveller who started it (the code's claimer); null once that account is deleted. */
  @UuidColumn('user_id', { nullable: true })
  userId!: string | null;

  /** Null once the tour is deleted. */
  @UuidColumn('tour_id', { nullable: true })
  tourId!: string | null;

  /** `YYYY-MM-DD`, the departure day. */
  @Column({ name: 'starts_on', type: 'date' })
  startsOn!: string;

  /** `YYYY-MM-DD`, the date of the last dated step. */
  @Column({ name: 'ends_on', type: 'date' })
  endsOn!: string;

  @Column({ type: 'integer' })
  travellers!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @BelongsTo(() => ActivationCode, 'activation_code_id', 'RESTRICT')
  activationCode?: ActivationCode;

  @BelongsTo(() => User, 'user_id', 'SET NULL')
  user?: User;

  @BelongsTo(() => Tour, 'tour_id', 'SET NULL')
  tour?: Tour;
}
