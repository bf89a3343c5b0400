import { Injectable } from '@nestjs/common';
import { MetricsService } from '@rt/platform';
import { Counter, Gauge, Histogram } from 'prom-client';

export type ListingBranch = 'filter' | 'search';
export type ReindexResult = 'succeeded' | 'failed' | 'refused' | 'skipped';
export type RecordOutcome = 'inserted' | 'updated' | 'unchanged' | 'removed' | 'invalid';

/** The search service's own metrics, in the service's one registry (GET /metrics). */
@Injectable()
export class SearchMetrics {
  readonly travelsRequests: Counter<'branch'>;
  readonly travelsQueryDuration: Histogram<'branch'>;
  readonly reindexRunning: Gauge;
  readonly reindexRuns: Counter<'result'>;
  readonly reindexDuration: Histogram<'result'>;
  readonly reindexRecords: Counter<'outcome'>;
  readonly reindexLastSuccess: Gauge;
  readonly indexedOffers: Gauge;
  readonly synonymSets: Gauge;
  readonly textIndexBytes: Gauge;
  readonly textIndexLoadSeconds: Gauge;
  readonly textIndexLoads: Counter;
  readonly vectorIndexBytes: Gauge;
  readonly vectorIndexLoadSeconds: Gauge;
  readonly vectorIndexLoads: Counter;
  readonly statementsPerSearch: Histogram;
  readonly synonymReloads: Counter<'result'>;
  readonly rateLimited: Counter;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.travelsRequests = new Counter({
      name: 'search_travels_requests_total',
      help: 'GET /travels requests by branch: filter (no search) or search.',
      labelNames: ['branch'],
      registers,
    });
    this.travelsQueryDuration = new Histogram({
      name: 'search_travels_query_duration_seconds',
      help: 'Database time of a GET /travels listing (page and exact total) by branch.',
      labelNames: ['branch'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.reindexRunning = new Gauge({
      name: 'search_reindex_running',
      help: '1 while this instance rebuilds the index, else 0.',
      registers,
    });
    this.reindexRuns = new Counter({
      name: 'search_reindex_runs_total',
      help: 'Reindex runs by result: succeeded, failed (source or database), refused (mass removal), skipped (another one was running).',
      labelNames: ['result'],
      registers,
    });
    this.reindexDuration = new Histogram({
      name: 'search_reindex_duration_seconds',
      help: 'Duration of reindex runs by result.',
      labelNames: ['result'],
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
      registers,
    });
    this.reindexRecords = new Counter({
      name: 'search_reindex_records_total',
      help: 'Catalogue records handled by applied reindex runs, by outcome.',
      labelNames: ['outcome'],
      registers,
    });
    this.reindexLastSuccess = new Gauge({
      name: 'search_reindex_last_success_timestamp_seconds',
      help: 'Unix time at which the last successful reindex finished (0: none yet).',
      registers,
    });
    this.indexedOffers = new Gauge({
      name: 'search_indexed_offers',
      help: 'Offers in the index after the last reindex this instance saw.',
      registers,
    });
    this.synonymSets = new Gauge({
      name: 'search_synonym_sets',
      help: 'Operator synonym sets (lines of SEARCH_SYNONYMS_SOURCE) in use.',
      registers,
    });
    this.synonymReloads = new Counter({
      name: 'search_synonyms_reloads_total',
      help: 'Reads of SEARCH_SYNONYMS_SOURCE (at start and at each reindex), by result; a failed one keeps the previous synonyms.',
      labelNames: ['result'],
      registers,
    });
    this.textIndexBytes = new Gauge({
      name: 'search_text_index_bytes',
      help: "Bytes of the in-memory text index's typed arrays (postings, filter columns, per-search work arrays, term dictionary) this replica serves from.",
      registers,
    });
    this.textIndexLoadSeconds = new Gauge({
      name: 'search_text_index_load_seconds',
      help: 'How long the last load of the in-memory text index took.',
      registers,
    });
    this.rateLimited = new Counter({
      name: 'search_rate_limited_total',
      help: 'GET /travels requests refused 429 by the flood limit of this replica (SEARCH_RATE_LIMIT).',
      registers,
    });
    this.textIndexLoads = new Counter({
      name: 'search_text_index_loads_total',
      help: 'Loads of the in-memory text index from the database (at start and for each new generation), by result.',
      labelNames: ['result'],
      registers,
    });
    this.vectorIndexBytes = new Gauge({
      name: 'search_vector_index_bytes',
      help: 'Bytes of the in-memory vector index (quantized and full-precision vectors, work arrays; SEARCH_VECTOR_INDEX=memory) this replica serves from.',
      registers,
    });
    this.vectorIndexLoadSeconds = new Gauge({
      name: 'search_vector_index_load_seconds',
      help: 'How long the last load of the in-memory vector index took.',
      registers,
    });
    this.vectorIndexLoads = new Counter({
      name: 'search_vector_index_loads_total',
      help: 'Loads of the in-memory vector index from the database (after each load of the text index), by result.',
      labelNames: ['result'],
      registers,
    });
    this.statementsPerSearch = new Histogram({
      name: 'search_statements_per_search',
      help: "Database statements a ranked search (GET /travels with search) ran: the page's records, and the semantic side when SEARCH_VECTOR_INDEX=database or its vectors are loading.",
      buckets: [0, 1, 2, 3, 4, 6, 9],
      registers,
    });
    for (const result of ['succeeded', 'failed'] as const) {
      this.synonymReloads.inc({ result }, 0);
      this.textIndexLoads.inc({ result }, 0);
      this.vectorIndexLoads.inc({ result }, 0);
    }
    this.synonymSets.set(0);
    for (const branch of ['filter', 'search'] as const) this.travelsRequests.inc({ branch }, 0);
    for (const result of ['succeeded', 'failed', 'refused', 'skipped'] as const)
      this.reindexRuns.inc({ result }, 0);
    for (const outcome of ['inserted', 'updated', 'unchanged', 'removed', 'invalid'] as const) {
      this.reindexRecords.inc({ outcome }, 0);
    }
    this.reindexRunning.set(0);
    this.reindexLastSuccess.set(0);
  }
}
