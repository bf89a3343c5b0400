import { FACET_FIELDS, FACET_VALUE_LIMIT } from '../../request/listing-facets';
import type { FacetCounts } from '../../request/listing-facets';
import type { InfoDensity } from '../../request/listing-request';
import { TERM_KINDS } from './dto/travel-listing.response';
import type {
  ExplanationDto,
  FacetCountsDto,
  FacetsDto,
  TermExplanationDto,
  TermKind,
  TravelListingResponseDto,
  TravelRecordDto,
  TravelScoresDto,
} from './dto/travel-listing.response';
import { rrfScore } from '../../ranking/rrf-score';
import type { RowExplanation } from '../../ranking/search-ranker';
import type { ExplainTermRow } from '../../indexes/text-index/text-explain';
import type { ListingRow } from '../../ranking/listing-row';
import { sameWord } from '../../query/analysis/query-words';

/** The scores of the filter-only branch (docs/decisions.md D-47): 1.0, 0.0, 0.0. */
export const FILTER_SCORES: TravelScoresDto = { _relevance_score: 1, semantic_score: 0, tsvector_score: 0 };

/** One record in the shape of its density (docs/decisions.md D-67), exactly those fields. */
export function toTravelRecord(
  row: ListingRow,
  density: InfoDensity,
  scores: TravelScoresDto,
  explanation?: ExplanationDto,
): TravelRecordDto {
  const scored = {
    _relevance_score: scores._relevance_score,
    semantic_score: scores.semantic_score,
    tsvector_score: scores.tsvector_score,
    ...(explanation ? { _explanation: explanation } : {}),
  };
  switch (density) {
    case 'min':
      return { id: row.id, name: row.name ?? '', slug: row.slug ?? '', ...scored };
    case 'card':
      return {
        id: row.id,
        name: row.name ?? '',
        description: row.description ?? null,
        rating: row.rating ?? null,
        slug: row.slug ?? '',
        nextDeparture: row.next_departure ?? null,
        ...scored,
      };
    case 'search':
      return {
        id: row.id,
        name: row.name ?? '',
        destination: row.destination_name ?? null,
        discount_club: row.discount_club ?? false,
        is_valid: row.is_valid ?? false,
        travel_ranges: row.categories ?? [],
        departure_dates: row.departure_dates ?? [],
        ...scored,
      };
    case 'full':
      return { ...(row.record ?? { id: row.id }), ...scored };
  }
}

/** A listing's count: exact (`eq`), or the bound it stopped at (`gte`, SEARCH_TOTAL_EXACT_LIMIT). */
export interface CountedTotal {
  total: number;
  relation: 'eq' | 'gte';
}

export function toListingResponse(
  { total, relation }: CountedTotal,
  page: number,
  records: TravelRecordDto[],
  facets?: FacetCounts,
): TravelListingResponseDto {
  return {
    totalRecords: total,
    totalRecordsRelation: relation,
    totalFilteredRecords: records.length,
    page,
    records,
    ...(facets ? { facets: toFacets(facets) } : {}),
  };
}

/** A listing's facets on the wire (D-81): per field the FACET_VALUE_LIMIT largest counts, then value ascending. */
export function toFacets({ counts, relation, unknownFilterValues }: FacetCounts): FacetsDto {
  const fields: FacetCountsDto = {};
  for (const field of FACET_FIELDS) {
    const values = counts[field];
    if (!values) continue;
    const sorted = [...values]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    fields[field] = {
      values: sorted.slice(0, FACET_VALUE_LIMIT),
      valuesLeftOut: Math.max(0, sorted.length - FACET_VALUE_LIMIT),
    };
  }
  return { relation, counts: fields, unknownFilterValues };
}

/**
 * Explain mode: a ranked record's explanation (apps/search/README.md, "Explain mode"). The
 * contributions are the fusion's own terms, w/(k + rank) and (1 − w)/(k + rank), 0 for a side the
 * record is not ranked on; the text terms' contributions are their parts times the coverage for
 * the best form of each word of a record the query selects, else 0, so they add up to the text
 * score.
 */
export function toExplanation(scores: TravelScoresDto, explain: RowExplanation): ExplanationDto {
  const { vectorWeight: w, k, semanticRank, textRank, terms, concepts, language, unmatchedWords } = explain;
  const places = explain.places ?? [];
  const matches = terms.some((term) => term.matches);
  return {
    score: scores._relevance_score,
    rrf: { vector_weight: w, k },
    semantic: {
      similarity: scores.semantic_score,
      rank: semanticRank,
      contribution: rrfScore(w, k, semanticRank ?? undefined, undefined),
    },
    text: {
      score: scores.tsvector_score,
      rank: textRank,
      contribution: rrfScore(w, k, undefined, textRank ?? undefined),
      coverage: matches ? (terms[0]?.coverage ?? 0) : 0,
      concepts: concepts.map((concept) => ({
        word: concept.token,
        weight: concept.weight,
        covered: matches && terms.some((term) => sameWord(term.word, concept.word) && term.covers),
        idf: concept.idf,
        place: placeCoverageOf(terms.filter((term) => sameWord(term.word, concept.word))),
      })),
      language,
      language_factor: terms[0]?.languageFactor ?? 1,
      unmatched_words: unmatchedWords,
      terms: terms.map(toTermExplanation),
      places: places.map(({ place, holdsOffers }) => {
        const located = terms.find((term) => term.location?.place === place.id && term.token === place.token);
        return {
          word: place.token,
          place: place.id,
          kind: place.kind,
          parent: place.regions[0] ?? null,
          in_catalogue: holdsOffers,
          covered_by: located?.location?.how ?? null,
          distance_km: located?.location?.distanceKm ?? null,
          share: located?.location?.share ?? 0,
        };
      }),
    },
  };
}

/** Where a record holds a place the search names: its name or destination, else only a mention (null: not a place). */
function placeCoverageOf(forms: ExplainTermRow[]): 'destination_or_name' | 'mention_only' | null {
  if (forms.some((form) => form.place === 'destination_or_name')) return 'destination_or_name';
  return forms.some((form) => form.place === 'mention_only') ? 'mention_only' : null;
}

/** One query term a record holds, on the wire. */
export function toTermExplanation(row: ExplainTermRow): TermExplanationDto {
  const counted = row.best && row.matches;
  return {
    word: row.token ?? '',
    term: row.term,
    kind: termKindOf(row),
    weight: row.weight,
    counted,
    contribution: counted ? (row.contribution ?? 0) : 0,
  };
}

/**
 * The wire kind of a query term: the analysis says `exact` for a word's folded form and its stems
 * alike, so a term other than the folded word is a `stem`.
 */
export function termKindOf({ kind, term, token }: Pick<ExplainTermRow, 'kind' | 'term' | 'token'>): TermKind {
  if (kind === 'exact') return term === token ? 'exact' : 'stem';
  return (TERM_KINDS as readonly string[]).includes(kind) ? (kind as TermKind) : 'exact';
}
