import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import {
  ColorField,
  DateField,
  EmailField,
  EnumField,
  IntegerField,
  TextField,
  TimeField,
  UuidField,
} from './fields';

/** `@ApiProperty`'s metadata key (DECORATORS.API_MODEL_PROPERTIES of @nestjs/swagger). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

const openApiOf = (type: Function, property: string): Record<string, unknown> =>
  Reflect.getMetadata(API_MODEL_PROPERTIES, type.prototype, property);

/** The messages by field, as the validation pipe reports them. */
async function errorsOf<T extends object>(type: new () => T, body: Record<string, unknown>) {
  const errors = await validate(plainToInstance(type, body));
  return Object.fromEntries(errors.map((e) => [e.property, Object.values(e.constraints ?? {})]));
}

const ID = '6f1c1f8e-3f4a-4a57-9d3c-2b1e0f9a8c7d';

class Stop {
  @UuidField()
  place_id!: string;

  @IntegerField({ min: 1, max: 50 })
  seats!: number;

  @TimeField()
  starts_at!: string;

  @DateField()
  day!: string;

  @ColorField()
  color!: string;
}

const validStop = { place_id: ID, seats: 4, starts_at: '09:30', day: '2026-11-24', color: '#1A2B3C' };

describe('UuidField, IntegerField, TimeField, DateField, ColorField', () => {
  it('accept valid values', async () => {
    await expect(errorsOf(Stop, validStop)).resolves.toEqual({});
    await expect(
      errorsOf(Stop, {
        ...validStop,
        place_id: ID.toUpperCase(),
        seats: 50,
        starts_at: '23:59',
        day: '2028-02-29',
        color: '#abcdef',
      }),
    ).resolves.toEqual({});
    await expect(
      errorsOf(Stop, { ...validStop, seats: 1, starts_at: '00:00', color: '#000000' }),
    ).resolves.toEqual({});
  });

  it('say which field is required', async () => {
    await expect(errorsOf(Stop, {})).resolves.toEqual({
      place_id: ['The place id field is required.'],
      seats: ['The seats field is required.'],
      starts_at: ['The starts at field is required.'],
      day: ['The day field is required.'],
      color: ['The color field is required.'],
    });
    await expect(errorsOf(Stop, { ...validStop, place_id: null, day: '' })).resolves.toEqual({
      place_id: ['The place id field is required.'],
      day: ['The day field is required.'],
    });
  });

  it.each([
    ['place_id', 'not-a-uuid', 'The place id field must be a valid UUID.'],
    ['place_id', `${ID}x`, 'The place id field must be a valid UUID.'],
    ['place_id', 42, 'The place id field must be a valid UUID.'],
    ['seats', 0, 'The seats field must be at least 1.'],
    ['seats', 51, 'The seats field must not be greater than 50.'],
    ['seats', 2.5, 'The seats field must be an integer.'],
    ['seats', '4', 'The seats field must be an integer.'],
    ['seats', 2 ** 53, 'The seats field must be an integer.'],
    ['starts_at', '24:00', 'The starts at field must be a time written HH:MM (00:00 to 23:59).'],
    ['starts_at', '9:30', 'The starts at field must be a time written HH:MM (00:00 to 23:59).'],
    ['starts_at', '09:60', 'The starts at field must be a time written HH:MM (00:00 to 23:59).'],
    ['starts_at', '09:30:00', 'The starts at field must be a time written HH:MM (00:00 to 23:59).'],
    ['day', '2026-02-30', 'The day field must be a date written YYYY-MM-DD.'],
    ['day', '2027-02-29', 'The day field must be a date written YYYY-MM-DD.'],
    ['day', '2026-13-01', 'The day field must be a date written YYYY-MM-DD.'],
    ['day', '2026-1-5', 'The day field must be a date written YYYY-MM-DD.'],
    ['day', '2026-11-24T00:00:00Z', 'The day field must be a date written YYYY-MM-DD.'],
    ['day', '1899-12-31', 'The day field must be a date from 1900-01-01 to 2999-12-31.'],
    ['day', '9999-12-31', 'The day field must be a date from 1900-01-01 to 2999-12-31.'],
    ['day', '0001-01-01', 'The day field must be a date from 1900-01-01 to 2999-12-31.'],
    ['day', '+275760-09-13', 'The day field must be a date written YYYY-MM-DD.'],
    ['day', 20261124, 'The day field must be a date written YYYY-MM-DD.'],
    ['color', 'red', 'The color field must be a color written #RRGGBB, e.g. #1A2B3C.'],
    ['color', '#12345', 'The color field must be a color written #RRGGBB, e.g. #1A2B3C.'],
    ['color', '#1234567', 'The color field must be a color written #RRGGBB, e.g. #1A2B3C.'],
    ['color', '#GGGGGG', 'The color field must be a color written #RRGGBB, e.g. #1A2B3C.'],
    ['color', '1A2B3C', 'The color field must be a color written #RRGGBB, e.g. #1A2B3C.'],
  ])('refuse %s = %j with one readable message', async (field, value, message) => {
    await expect(errorsOf(Stop, { ...validStop, [field]: value })).resolves.toEqual({ [field]: [message] });
  });

  it('document themselves in the contract', () => {
    expect(openApiOf(Stop, 'place_id')).toMatchObject({ type: 'string', format: 'uuid' });
    // Required is @ApiProperty's default: the keyword is only written for optional fields.
    expect(openApiOf(Stop, 'place_id')).not.toHaveProperty('required');
    expect(openApiOf(Stop, 'seats')).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(openApiOf(Stop, 'starts_at')).toMatchObject({
      type: 'string',
      pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    });
    expect(openApiOf(Stop, 'day')).toMatchObject({ type: 'string', format: 'date' });
    expect(openApiOf(Stop, 'color')).toMatchObject({ type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' });
    expect(openApiOf(Stop, 'color')).not.toHaveProperty('nullable');
  });
});

class Patch {
  @TextField({ max: 20, optional: true })
  nickname?: string;

  @UuidField({ nullable: true })
  picture_id!: string | null;

  @DateField({ optional: true, nullable: true })
  ends_on?: string | null;

  @EnumField(['a', 'b'] as const, 'Letter', { optional: true })
  letter?: 'a' | 'b';

  @EmailField({ nullable: true })
  contact!: string | null;
}

describe('optional and nullable fields', () => {
  it('accept a left-out optional field and null in a nullable one', async () => {
    await expect(errorsOf(Patch, { picture_id: null, contact: null })).resolves.toEqual({});
    await expect(
      errorsOf(Patch, { picture_id: ID, ends_on: null, contact: 'ada@example.com', letter: 'b' }),
    ).resolves.toEqual({});
  });

  it('still require a nullable field to be sent, and refuse null in an optional one', async () => {
    await expect(errorsOf(Patch, { nickname: null, letter: null })).resolves.toEqual({
      nickname: ['The nickname field must not be null.'],
      picture_id: ['The picture id field is required.'],
      letter: ['The letter field must not be null.'],
      contact: ['The contact field is required.'],
    });
  });

  it('check a value that is sent like any other', async () => {
    await expect(
      errorsOf(Patch, {
        nickname: '',
        picture_id: 'x',
        ends_on: '2026-02-30',
        letter: 'c',
        contact: 'nope',
      }),
    ).resolves.toEqual({
      nickname: ['The nickname field must not be empty.'],
      picture_id: ['The picture id field must be a valid UUID.'],
      ends_on: ['The ends on field must be a date written YYYY-MM-DD.'],
      letter: ['The letter field must be one of: a, b.'],
      contact: ['The contact field must be a valid email address.'],
    });
    await expect(
      errorsOf(Patch, { nickname: 'x'.repeat(21), picture_id: null, contact: null }),
    ).resolves.toEqual({ nickname: ['The nickname field must not be greater than 20 characters.'] });
  });

  it('say so in the contract', () => {
    expect(openApiOf(Patch, 'nickname')).toMatchObject({ required: false, maxLength: 20 });
    expect(openApiOf(Patch, 'nickname')).not.toHaveProperty('nullable');
    expect(openApiOf(Patch, 'picture_id')).toMatchObject({ nullable: true, format: 'uuid' });
    expect(openApiOf(Patch, 'picture_id')).not.toHaveProperty('required');
    expect(openApiOf(Patch, 'ends_on')).toMatchObject({ required: false, nullable: true, format: 'date' });
    expect(openApiOf(Patch, 'letter')).toMatchObject({ required: false, enumName: 'Letter' });
  });
});
