import { toZurichIso } from '@rt/platform';
import type { ReindexResponseDto } from './dto/reindex.response';
import type { TriggerAnswer } from './reindex.service';

const MESSAGES: Record<TriggerAnswer, string> = {
  started: 'Reindex started in the background.',
  already_running: 'A reindex is already running; this request was ignored.',
  no_source: 'No catalogue source is configured (CATALOGUE_SOURCE); nothing to reindex.',
};

export function toReindexResponse(answer: TriggerAnswer, now: Date): ReindexResponseDto {
  return { message: MESSAGES[answer], time: toZurichIso(now) };
}
