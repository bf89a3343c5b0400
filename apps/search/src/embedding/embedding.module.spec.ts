import { ConfigError } from '@rt/platform';
import { loadSearchConfig } from '../config';
import { BuiltinEmbeddingProvider } from './builtin-embedding.provider';
import { createCachedEmbeddingProvider, createEmbeddingProvider } from './embedding.module';
import { HttpEmbeddingProvider } from './http-embedding.provider';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadSearchConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('embedding configuration', () => {
  it('defaults to the built-in provider with a query cache, and no full-text fallback', () => {
    const config = loadSearchConfig({});
    expect(config).toMatchObject({
      EMBEDDING_PROVIDER: 'builtin',
      EMBEDDING_SEND_DIMENSIONS: false,
      EMBEDDING_TIMEOUT_MS: 1500,
      EMBEDDING_BATCH_TIMEOUT_MS: 30_000,
      EMBEDDING_BATCH_SIZE: 32,
      EMBEDDING_MAX_RETRIES: 4,
      EMBEDDING_CIRCUIT_FAILURES: 5,
      EMBEDDING_CIRCUIT_COOLDOWN_MS: 30_000,
      QUERY_EMBEDDING_CACHE_SIZE: 1000,
      QUERY_EMBEDDING_CACHE_TTL_MS: 3_600_000,
      SEARCH_FULLTEXT_FALLBACK: false,
    });
    expect(createEmbeddingProvider(config)).toBeInstanceOf(BuiltinEmbeddingProvider);
    const cached = createCachedEmbeddingProvider(config);
    expect(cached.inner).toBeInstanceOf(BuiltinEmbeddingProvider);
    expect(cached.dimension).toBe(384);
  });

  it('builds the HTTP provider from its variables', () => {
    const config = loadSearchConfig({
      EMBEDDING_PROVIDER: 'http',
      EMBEDDING_URL: 'http://ollama:11434',
      EMBEDDING_MODEL: 'all-minilm',
      EMBEDDING_API_KEY: 'sk-test',
      EMBEDDING_TIMEOUT_MS: '800',
      EMBEDDING_BATCH_SIZE: '16',
      SEARCH_FULLTEXT_FALLBACK: 'yes',
      QUERY_EMBEDDING_CACHE_SIZE: '0',
    });
    expect(config.SEARCH_FULLTEXT_FALLBACK).toBe(true);
    const provider = createEmbeddingProvider(config) as HttpEmbeddingProvider;
    expect(provider).toBeInstanceOf(HttpEmbeddingProvider);
    expect(provider.endpoint.href).toBe('http://ollama:11434/v1/embeddings');
    expect(provider.model).toBe('all-minilm');
    expect(provider.dimension).toBe(384);
  });

  it('requires EMBEDDING_URL and EMBEDDING_MODEL with the HTTP provider', () => {
    const problems = problemsOf({ EMBEDDING_PROVIDER: 'http' });
    expect(problems).toEqual([
      expect.stringMatching(
        /^EMBEDDING_URL \(not set\): .*required|EMBEDDING_URL \(not set\): EMBEDDING_URL must be/,
      ),
      expect.stringMatching(/^EMBEDDING_MODEL \(not set\): EMBEDDING_MODEL .*is required/),
    ]);
  });

  it('refuses bad values', () => {
    expect(problemsOf({ EMBEDDING_PROVIDER: 'openai' })).toEqual([
      expect.stringMatching(/^EMBEDDING_PROVIDER/),
    ]);
    expect(
      problemsOf({ EMBEDDING_PROVIDER: 'http', EMBEDDING_URL: 'ollama:11434', EMBEDDING_MODEL: 'm' }),
    ).toEqual([expect.stringMatching(/^EMBEDDING_URL: .*http\(s\) base URL/)]);
    expect(problemsOf({ EMBEDDING_URL: 'file:///etc/passwd' })).toHaveLength(1);
    expect(
      problemsOf({ EMBEDDING_BATCH_SIZE: '0', EMBEDDING_MAX_RETRIES: '-1', EMBEDDING_TIMEOUT_MS: 'soon' }),
    ).toHaveLength(3);
    expect(problemsOf({ SEARCH_FULLTEXT_FALLBACK: 'maybe' })).toEqual([
      expect.stringMatching(/^SEARCH_FULLTEXT_FALLBACK/),
    ]);
  });

  it('accepts local URLs of containers and hosts', () => {
    for (const url of [
      'http://127.0.0.1:8080',
      'http://localhost:11434/v1',
      'http://text_embeddings:80',
      'https://api.openai.com/v1',
    ]) {
      expect(problemsOf({ EMBEDDING_PROVIDER: 'http', EMBEDDING_URL: url, EMBEDDING_MODEL: 'm' })).toEqual(
        [],
      );
    }
  });

  it('never puts the API key in a configuration error', () => {
    const problems = problemsOf({
      EMBEDDING_PROVIDER: 'http',
      EMBEDDING_API_KEY: 'sk-secret-999',
      EMBEDDING_BATCH_SIZE: 'x',
    });
    expect(problems.join('\n')).not.toContain('sk-secret-999');
  });
});
