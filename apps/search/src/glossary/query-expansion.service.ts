import { Inject, Injectable } from '@nestjs/common';
import { SEARCH_CONFIG } from '../config';
import type { SearchConfig } from '../config';
import { QUERY_WORDS } from '../travels/text-side.sql';
import { loadTravelGlossary } from './glossary';
import { glossaryRules, NO_EXPANSION, QueryExpander } from './query-expander';
import type { QueryExpansion } from './query-expander';

/**
 * The words a search gains (apps/search/README.md, "Query expansion"): the travel glossary,
 * read and validated once at start (a service with an unreadable glossary does not start), and
 * looked up in memory per search, never in the database.
 */
@Injectable()
export class QueryExpansionService {
  private readonly expander: QueryExpander;

  constructor(@Inject(SEARCH_CONFIG) private readonly config: SearchConfig) {
    this.expander = new QueryExpander(glossaryRules(loadTravelGlossary()));
  }

  expand(search: string): QueryExpansion {
    return this.config.SEARCH_GLOSSARY_WEIGHT > 0 ? this.expander.expand(search, QUERY_WORDS) : NO_EXPANSION;
  }
}
