import { IntegerField, TimeField } from '@rt/contracts';
import { applyDecorators } from '@nestjs/common';
import { IdListField } from '../../activities/dto/id-list-field';

export const MAX_DAY_NUMBER = 1000;
export const MAX_PLANS = 50;

export const DayNumberField = () =>
  IntegerField({
    min: 1,
    max: MAX_DAY_NUMBER,
    optional: true,
    nullable: true,
    description: 'The day of the tour (1 = the departure day); absent or null: undated.',
  });

export const StepTimeField = () =>
  TimeField({
    optional: true,
    nullable: true,
    description: 'Written `HH:MM` only (00:00 to 23:59); read back `HH:MM:SS`. Null: no time.',
  });

export const ActivityIdsField = (description: string) =>
  applyDecorators(IdListField({ maxItems: MAX_PLANS, description }));
