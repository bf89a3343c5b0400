import { DEMO_CATEGORY_SLUGS } from '@rt/contracts';
import { THEMES } from '../catalogue/generator-data';

describe('the demo category slugs the benchmarks and load mixes draw from', () => {
  it('are the generated catalogue’s theme slugs, in its order', () => {
    expect([...DEMO_CATEGORY_SLUGS]).toEqual(THEMES.map(({ slug }) => slug));
  });
});
