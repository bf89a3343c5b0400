import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import { CreateActivityDto } from '../activities/dto/create-activity.dto';
import { UpdateActivityDto } from '../activities/dto/update-activity.dto';
import { CreateOrganizationDto } from '../organizations/dto/create-organization.dto';
import { SignUpOrganizationDto } from '../organizations/dto/sign-up-organization.dto';
import { UpdateOrganizationDto } from '../organizations/dto/update-organization.dto';
import { CreateProviderDto } from '../providers/dto/create-provider.dto';
import { UpdateProviderDto } from '../providers/dto/update-provider.dto';
import { TagNamesDto } from '../tags/dto/tag-names.dto';
import { CreateTourDto } from '../tours/dto/create-tour.dto';
import { UpdateTourDto } from '../tours/dto/update-tour.dto';
import { changedMultiLineNames, isSingleLine, SingleLine, singleLineMessage } from './single-line';

/** Every request DTO with a single-line name, and those names (`PUT /user` is judged by its service). */
const NAME_FIELDS: [Type, string[]][] = [
  [CreateOrganizationDto, ['name', 'manager_first_name', 'manager_last_name']],
  [SignUpOrganizationDto, ['name', 'contact_first_name', 'contact_last_name']],
  [UpdateOrganizationDto, ['name']],
  [CreateTourDto, ['name']],
  [UpdateTourDto, ['name']],
  [CreateActivityDto, ['name']],
  [UpdateActivityDto, ['name']],
  [CreateProviderDto, ['name']],
  [UpdateProviderDto, ['name']],
  [TagNamesDto, ['fr', 'en', 'de']],
];

describe('isSingleLine', () => {
  it.each([
    ['LF', 'A\nB'],
    ['CR', 'A\rB'],
    ['tab', 'A\tB'],
    ['the first C0 after NUL', '\u0001'],
    ['the last C0', 'A\u001f'],
    ['DEL', 'A\u007f'],
    ['the first C1', '\u0080A'],
    ['NEL', 'A\u0085B'],
    ['the last C1', 'A\u009f'],
    ['the line separator', 'A\u2028B'],
    ['the paragraph separator', 'A\u2029B'],
  ])('refuses %s', (_name, value) => {
    expect(isSingleLine(value)).toBe(false);
  });

  it.each([
    ['a plain name', 'Ada Lovelace'],
    ['accents and apostrophes', "Zoë d'Ornière-Müller"],
    ['the characters next to the ranges', '\u0020~\u00a0\u2027\u202a'],
    ['a character beyond the BMP', 'Tour 🏔️'],
    ['empty text', ''],
  ])('accepts %s', (_name, value) => {
    expect(isSingleLine(value)).toBe(true);
  });
});

describe('SingleLine', () => {
  class Probe {
    @SingleLine()
    first_name?: unknown;
  }

  it('refuses a string with a line break, in the style of the other messages', async () => {
    const [error] = await validate(plainToInstance(Probe, { first_name: 'A\r\nB' }));
    expect(error.constraints).toEqual({
      singleLine: 'The first name field must be a single line: no line breaks or control characters.',
    });
  });

  it('leaves everything but such a string to the field decorator', async () => {
    for (const value of [undefined, null, 12, 'Ada']) {
      expect(await validate(plainToInstance(Probe, { first_name: value }))).toEqual([]);
    }
  });

  it.each(NAME_FIELDS.map(([dto, fields]) => [dto.name, dto, fields] as const))(
    'decorates the names of %s',
    (_name, dto, fields) => {
      const decorated = getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .filter((entry) => entry.name === 'singleLine')
        .map((entry) => entry.propertyName);
      expect(decorated.sort()).toEqual([...fields].sort());
    },
  );
});

describe('changedMultiLineNames', () => {
  it('refuses a changed name with a control character, and only that one', () => {
    expect(
      changedMultiLineNames({
        first_name: ['A\r\nB', 'Ada'],
        last_name: ['Love\u2028lace', 'Love\u2028lace'],
      }),
    ).toEqual({ first_name: [singleLineMessage('first_name')] });
  });

  it('accepts single-line names, changed or not', () => {
    expect(changedMultiLineNames({ first_name: ['Grace', 'Ada'], last_name: ['Hopper', 'Hopper'] })).toEqual(
      {},
    );
  });
});
