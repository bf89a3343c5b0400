import { DateField, isCalendarDate, TextField } from '@rt/contracts';
import { ValidateBy, ValidationArguments } from 'class-validator';

/** `ends_on` is on or after `starts_on` (both valid dates; otherwise their own rules answer). */
function OnOrAfterStart(): PropertyDecorator {
  const fine = (args?: ValidationArguments) => {
    const body = (args?.object ?? {}) as { starts_on?: unknown };
    const end = args?.value;
    // YYYY-MM-DD strings compare as dates.
    if (typeof end !== 'string' || typeof body.starts_on !== 'string') return true;
    if (!isCalendarDate(end) || !isCalendarDate(body.starts_on)) return true;
    return end >= body.starts_on;
  };
  return ValidateBy({
    name: 'onOrAfterStart',
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) => fine(args),
      defaultMessage: () => 'The ends on field must be a date after or equal to starts on.',
    },
  });
}

/** `POST /tour/activity/{activityId}/closures` (super-admin): a closed range, both ends inclusive. */
export class CreateActivityClosureDto {
  @DateField({ description: 'First closed day.' })
  starts_on!: string;

  @DateField({ description: 'Last closed day: on or after `starts_on` (else 422).' })
  @OnOrAfterStart()
  ends_on!: string;

  @TextField({ max: 1000, optional: true, nullable: true, example: 'Annual maintenance' })
  reason?: string | null;
}
