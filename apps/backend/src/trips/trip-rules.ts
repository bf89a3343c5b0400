import { zurichToday } from '@rt/platform';
import type { ViewingContext } from '../access/access';
import type { TripStartRefusal } from '../activation-codes/activation-code-status';

/** What `POST /trips` says on `activation_code_id` when the code refuses the start. */
export const CODE_REFUSAL_MESSAGES: Record<TripStartRefusal, string> = {
  not_claimed: 'You have not claimed this activation code.',
  code_reimbursed: 'This code was reimbursed and can no longer be used.',
  code_cancelled: 'This code was cancelled and can no longer be used.',
  code_used: 'This code was already used for a trip.',
  code_expired: 'This code has expired.',
};

/** Whether a departure on `startsOn` is before today in Europe/Zurich at `now` (refused). */
export const startsInPast = (startsOn: string, now: Date): boolean => startsOn < zurichToday(now);

/** A trip shows to its traveller under any hat, and to anyone under the super-admin hat. */
export const tripVisibleTo = (trip: { userId: string | null }, viewing: ViewingContext): boolean =>
  viewing.hat.kind === 'super-admin' || trip.userId === viewing.user.id;
