import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgedQueries } from './build-judgements';

describe('the judged set of the demo catalogue', () => {
  it('judged-queries.json is what build-judgements.ts writes', () => {
    const committed = JSON.parse(readFileSync(join(__dirname, 'judged-queries.json'), 'utf8')) as {
      queries: unknown[];
    };
    expect(committed.queries).toEqual(judgedQueries());
  });
});
