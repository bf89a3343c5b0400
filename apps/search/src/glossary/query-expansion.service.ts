import { Inject, Injectable, Logger, Module, Optional } from '@nestjs/common';
import type { OnModuleInit } from '@nestjs/common';
import { SEARCH_CONFIG } from '../config';
import type { SearchConfig } from '../config';
import { SearchMetrics, SearchMetricsModule } from '../metrics/search-metrics';
import { QUERY_WORDS } from '../text-index/query-limits';
import { loadTravelGlossary } from './glossary';
import { glossaryRules, NO_EXPANSION, QueryExpander } from './query-expander';
import type { ExpansionRule, QueryExpansion } from './query-expander';
import { readSynonymsSource } from './synonyms';

/**
 * The words a search gains (apps/search/README.md, "Query expansion"): the travel glossary, read
 * and validated once at start, merged with the operator synonyms (SEARCH_SYNONYMS_SOURCE, read at
 * start and again at each reindex), looked up in memory per search, never in the database. A
 * service whose glossary or synonyms cannot be read does not start; a reindex that cannot read
 * the synonyms keeps the previous ones.
 */
@Injectable()
export class QueryExpansionService implements OnModuleInit {
  private readonly logger = new Logger('QueryExpansion');
  private readonly glossary: ExpansionRule[];
  private synonyms: ExpansionRule[] = [];
  /** Glossary and synonyms; synonyms alone (SEARCH_GLOSSARY_WEIGHT 0). */
  private expanders: { all: QueryExpander; synonyms: QueryExpander };

  constructor(
    @Inject(SEARCH_CONFIG) private readonly config: SearchConfig,
    @Optional() private readonly metrics?: SearchMetrics,
  ) {
    this.glossary = glossaryRules(loadTravelGlossary());
    this.expanders = this.build();
  }

  async onModuleInit(): Promise<void> {
    await this.reloadSynonyms();
  }

  expand(search: string): QueryExpansion {
    const expander = this.config.SEARCH_GLOSSARY_WEIGHT > 0 ? this.expanders.all : this.expanders.synonyms;
    return expander.size ? expander.expand(search, QUERY_WORDS) : NO_EXPANSION;
  }

  /** Reads SEARCH_SYNONYMS_SOURCE again; on failure (SynonymsError naming the line) keeps the previous synonyms and throws. */
  async reloadSynonyms(): Promise<number> {
    const source = this.config.SEARCH_SYNONYMS_SOURCE;
    if (!source) return 0;
    let rules: ExpansionRule[];
    try {
      rules = await readSynonymsSource(source, this.config.CATALOGUE_SOURCE_TIMEOUT_MS);
    } catch (error) {
      this.metrics?.synonymReloads.inc({ result: 'failed' });
      throw error;
    }
    this.synonyms = rules;
    this.expanders = this.build();
    this.metrics?.synonymReloads.inc({ result: 'succeeded' });
    this.metrics?.synonymSets.set(rules.length);
    this.logger.log(`${rules.length} synonym sets read`);
    return rules.length;
  }

  private build(): { all: QueryExpander; synonyms: QueryExpander } {
    return {
      all: new QueryExpander([...this.glossary, ...this.synonyms]),
      synonyms: new QueryExpander(this.synonyms),
    };
  }
}

@Module({
  imports: [SearchMetricsModule],
  providers: [QueryExpansionService],
  exports: [QueryExpansionService],
})
export class QueryExpansionModule {}
