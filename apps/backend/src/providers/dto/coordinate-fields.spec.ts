import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateProviderDto } from './create-provider.dto';
import { ProvidersQueryDto } from './providers-query.dto';

const bodyProblems = (body: Record<string, unknown>) =>
  Object.fromEntries(
    validateSync(plainToInstance(CreateProviderDto, { name: 'x', ...body })).map((e) => [
      e.property,
      Object.values(e.constraints ?? {}),
    ]),
  );

const queryProblems = (query: Record<string, unknown>) =>
  Object.fromEntries(
    validateSync(plainToInstance(ProvidersQueryDto, query)).map((e) => [
      e.property,
      Object.values(e.constraints ?? {}),
    ]),
  );

describe('coordinates', () => {
  it('come together in a body, numbers in range or both null', () => {
    expect(bodyProblems({})).toEqual({});
    expect(bodyProblems({ latitude: 46.2, longitude: 6.1 })).toEqual({});
    expect(bodyProblems({ latitude: null, longitude: null })).toEqual({});
    expect(bodyProblems({ latitude: 46.2 })).toEqual({
      longitude: ['The longitude field is required when latitude is present.'],
    });
    expect(bodyProblems({ latitude: 91, longitude: 0 })).toEqual({
      latitude: ['The latitude field must be between -90 and 90.'],
    });
    expect(bodyProblems({ latitude: 0, longitude: -180.5 })).toEqual({
      longitude: ['The longitude field must be between -180 and 180.'],
    });
    expect(bodyProblems({ latitude: '46.2', longitude: 6 }).latitude).toEqual([
      'The latitude field must be a number.',
    ]);
    expect(bodyProblems({ latitude: null, longitude: 6 }).latitude).toEqual([
      'The latitude field must be null when longitude is not.',
    ]);
  });

  it('are read from a query string as decimals', () => {
    expect(queryProblems({ latitude: '46.2044', longitude: '-6.1432' })).toEqual({});
    expect(queryProblems({ latitude: '46.2' })).toEqual({
      longitude: ['The longitude field is required when latitude is present.'],
    });
    expect(queryProblems({ latitude: 'north', longitude: '6' })).toEqual({
      latitude: ['The latitude field must be a number.'],
    });
    expect(queryProblems({ latitude: '-90.01', longitude: '6' })).toEqual({
      latitude: ['The latitude field must be between -90 and 90.'],
    });
    const parsed = plainToInstance(ProvidersQueryDto, { latitude: '46.5', longitude: '7' });
    expect(parsed.latitude).toBe(46.5);
  });

  it('read a value closer to 0 than a nanodegree as 0 (ll_to_earth underflows on subnormal numbers)', () => {
    const body = plainToInstance(CreateProviderDto, { name: 'x', latitude: -2e-323, longitude: 1e-10 });
    expect([body.latitude, body.longitude]).toEqual([0, 0]);
    expect(bodyProblems({ latitude: -2e-323, longitude: 7.25 })).toEqual({});
    const query = plainToInstance(ProvidersQueryDto, { latitude: `0.${'0'.repeat(322)}1`, longitude: '6.1' });
    expect(query.latitude).toBe(0);
    expect(plainToInstance(CreateProviderDto, { name: 'x', latitude: 1e-9, longitude: -46.5 }).latitude).toBe(
      1e-9,
    );
  });
});
