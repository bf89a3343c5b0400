import { loadSearchConfig } from '../../config';
import { rankingTuningOf } from './travels-request';

const HTTP = { EMBEDDING_PROVIDER: 'http', EMBEDDING_URL: 'http://127.0.0.1:9/v1', EMBEDDING_MODEL: 'm' };

describe('the fusion defaults of each embedding provider (FUSION_DEFAULTS)', () => {
  it('gives the built-in provider its measured weight and floor', () => {
    const tuning = rankingTuningOf({}, loadSearchConfig({}));
    expect([tuning.rrfVectorWeight, tuning.semanticFloor]).toEqual([0.01, 0.1]);
  });

  it('weighs both sides alike, without a similarity floor, for a model behind the HTTP provider', () => {
    const tuning = rankingTuningOf({}, loadSearchConfig(HTTP));
    expect([tuning.rrfVectorWeight, tuning.semanticFloor]).toEqual([0.5, 0]);
  });

  it('lets SEARCH_RRF_VECTOR_WEIGHT and SEARCH_SEMANTIC_FLOOR override them, and a query override both', () => {
    const config = loadSearchConfig({
      ...HTTP,
      SEARCH_RRF_VECTOR_WEIGHT: '0.2',
      SEARCH_SEMANTIC_FLOOR: '0.3',
    });
    const configured = rankingTuningOf({}, config);
    expect([configured.rrfVectorWeight, configured.semanticFloor]).toEqual([0.2, 0.3]);
    const asked = rankingTuningOf({ rrfVectorWeight: 0, semanticFloor: 0 }, config);
    expect([asked.rrfVectorWeight, asked.semanticFloor]).toEqual([0, 0]);
  });
});
