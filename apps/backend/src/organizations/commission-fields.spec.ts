import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { hasAtMostTwoDecimals } from './commission-fields';
import { UpdateOrganizationDto } from './dto/update-organization.dto';

const problems = (body: Record<string, unknown>) =>
  Object.fromEntries(
    validateSync(plainToInstance(UpdateOrganizationDto, body)).map((e) => [
      e.property,
      Object.values(e.constraints ?? {}),
    ]),
  );

describe('the commission pair', () => {
  it('knows two decimals from more, as JSON numbers arrive', () => {
    for (const ok of [0, 12, 12.5, 12.34, 100, 99999999.99]) expect(hasAtMostTwoDecimals(ok)).toBe(true);
    for (const bad of [12.345, 0.001, 0.1 + 0.2, 1e-7]) expect(hasAtMostTwoDecimals(bad)).toBe(false);
  });

  it('accepts both or neither, and names the missing half', () => {
    expect(problems({})).toEqual({});
    expect(problems({ commission: 12.5, commission_type: 'percent' })).toEqual({});
    expect(problems({ commission: 0 })).toEqual({
      commission_type: ['The commission type field is required when commission is present.'],
    });
    expect(problems({ commission_type: 'fixed' })).toEqual({
      commission: ['The commission field is required when commission type is present.'],
    });
  });

  it('bounds a percent at 100 and a fixed amount at what numeric(10,2) holds', () => {
    expect(problems({ commission: 100, commission_type: 'percent' })).toEqual({});
    expect(problems({ commission: 100.5, commission_type: 'percent' }).commission).toHaveLength(1);
    expect(problems({ commission: 99999999.99, commission_type: 'fixed' })).toEqual({});
    expect(problems({ commission: 100000000, commission_type: 'fixed' }).commission).toEqual([
      'The commission field must not be greater than 99999999.99.',
    ]);
    expect(problems({ commission: -0.01, commission_type: 'fixed' }).commission).toEqual([
      'The commission field must be at least 0.',
    ]);
    expect(problems({ commission: '5', commission_type: 'fixed' }).commission).toEqual([
      'The commission field must be a number.',
    ]);
  });
});
