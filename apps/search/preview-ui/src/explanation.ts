import { bar, h } from './dom';
import { formatDecimal, formatPercent, formatScore } from './format';
import type { Explanation, TermExplanation } from './offer-view';

/** The knobs a search ran with, to say why a side did not rank a record. */
export interface RankingContext {
  semanticFloor: number;
  tsvectorFloor: number;
}

export const KIND_MEANINGS: Record<TermExplanation['kind'], string> = {
  exact: 'the search word itself',
  stem: 'a French, German or English stem of the word',
  typo: 'a spelling correction',
  compound: 'a part of a compound word',
  phrase: 'two adjacent search words',
  stop: 'a stop word',
  glossary: 'the same travel concept in another language (glossary)',
  synonym: 'an operator synonym',
  place: 'another name of the place (gazetteer)',
  within: 'a place inside the one searched (gazetteer)',
  narrower: 'a narrower concept (winter sports: skiing)',
  related: 'a near concept or the theme of an item, a minor part of the search (castle: culture)',
  location: 'where the offer is: in, near or in the region of the place searched',
};

function semanticUnranked(explanation: Explanation, context: RankingContext): string {
  if (explanation.rrf.vector_weight === 0) return 'not ranked: the semantic side has no weight';
  if (explanation.semantic.similarity < context.semanticFloor) return 'not ranked: below the semantic floor';
  return 'not ranked: not among the nearest offers';
}

function textUnranked(explanation: Explanation, context: RankingContext): string {
  if (explanation.rrf.vector_weight === 1) return 'not ranked: the text side has no weight';
  if (explanation.text.terms.length === 0 || explanation.text.coverage === 0) {
    return 'not ranked: holds no search word';
  }
  if (explanation.text.score < context.tsvectorFloor) return 'not ranked: below the text floor';
  return 'not ranked: past the text side’s best offers';
}

/** Both sides' parts of the fused score as one bar, whose full width is the best score possible. */
function fusionBar(explanation: Explanation): HTMLElement {
  const best = 1 / (explanation.rrf.k + 1);
  const track = h('span', { class: 'bar stacked', 'aria-hidden': 'true' });
  for (const [variant, contribution] of [
    ['semantic', explanation.semantic.contribution],
    ['text', explanation.text.contribution],
  ] as const) {
    const part = h('span', { class: `bar-fill bar-${variant}` });
    part.style.width = `${Math.min(100, (contribution / best) * 100).toFixed(2)}%`;
    track.append(part);
  }
  return track;
}

function sidesTable(explanation: Explanation, context: RankingContext): HTMLTableElement {
  const { k, vector_weight: semanticWeight } = explanation.rrf;
  const sides = [
    {
      name: 'Semantic',
      variant: 'semantic',
      rank: explanation.semantic.rank,
      weight: semanticWeight,
      contribution: explanation.semantic.contribution,
      unranked: semanticUnranked(explanation, context),
    },
    {
      name: 'Text',
      variant: 'text',
      rank: explanation.text.rank,
      weight: 1 - semanticWeight,
      contribution: explanation.text.contribution,
      unranked: textUnranked(explanation, context),
    },
  ];
  return captionedTable(
    'sides',
    `Fusion: each side gives weight / (${k} + rank); a full bar is rank 1`,
    ['Side', 'Rank', 'Weight', 'Contribution'],
    sides.map((side) =>
      h(
        'tr',
        {},
        h(
          'th',
          { scope: 'row' },
          h('span', { class: `swatch swatch-${side.variant}`, 'aria-hidden': 'true' }),
          side.name,
        ),
        h('td', {}, side.rank === null ? side.unranked : String(side.rank)),
        h('td', { class: 'number' }, formatDecimal(side.weight, 2)),
        h(
          'td',
          { class: 'with-bar' },
          bar(side.weight === 0 ? 0 : side.contribution / (side.weight / (k + 1)), side.variant),
          h('span', { class: 'number' }, formatScore(side.contribution)),
        ),
      ),
    ),
  );
}

function termsTable(explanation: Explanation): HTMLElement {
  const { terms, score } = explanation.text;
  if (terms.length === 0) {
    return h(
      'p',
      { class: 'hint' },
      'No search word is in this offer’s text: the semantic side found it alone.',
    );
  }
  return captionedTable(
    'terms',
    'Text terms: each search word and the index term it matched in this offer',
    ['Search word', 'Index term', 'Kind', 'Weight', 'Contribution'],
    terms.map((term) =>
      h(
        'tr',
        { class: term.counted ? 'counted' : 'not-counted' },
        h('td', {}, term.word),
        h('td', {}, h('span', { class: 'arrow', 'aria-hidden': 'true' }, '→ '), term.term),
        h(
          'td',
          {},
          h('span', { class: `kind kind-${term.kind}`, title: KIND_MEANINGS[term.kind] }, term.kind),
        ),
        h('td', { class: 'number' }, formatDecimal(term.weight, 2)),
        h(
          'td',
          { class: 'with-bar' },
          bar(score > 0 ? term.contribution / score : 0, 'text'),
          h(
            'span',
            { class: 'number' },
            term.counted ? formatDecimal(term.contribution, 2) : '0, not counted',
          ),
        ),
      ),
    ),
  );
}

function kindLegend(explanation: Explanation): HTMLElement | null {
  const { terms } = explanation.text;
  const kinds = [...new Set(terms.map((term) => term.kind))];
  if (kinds.length === 0) return null;
  return h(
    'div',
    { class: 'kind-legend' },
    h(
      'dl',
      {},
      ...kinds.flatMap((kind) => [
        h('dt', {}, h('span', { class: `kind kind-${kind}` }, kind)),
        h('dd', {}, KIND_MEANINGS[kind]),
      ]),
    ),
    terms.some((term) => !term.counted)
      ? h('p', { class: 'hint' }, 'A search word counts once, by its best form here; its other forms add 0.')
      : null,
  );
}

/** The search's words that matched no form (`unmatched_words`): what the search did not understand. */
function unmatchedNote(explanation: Explanation): HTMLElement | null {
  const words = explanation.text.unmatched_words;
  if (!words.length) return null;
  return h(
    'p',
    { class: 'hint unmatched' },
    `Not understood: ${words.join(', ')}. No offer holds ${words.length === 1 ? 'this word' : 'these words'} ` +
      'in any form (spelling corrections, translations and places included): the ranking answers for the other words.',
  );
}

/** "Why this rank": `explain=true`'s breakdown of one record as a picture, its numbers written out. */
export function renderExplanation(explanation: Explanation, context: RankingContext): HTMLElement {
  const { semantic, text } = explanation;
  const similarity = Math.max(0, Math.min(1, semantic.similarity));
  return h(
    'div',
    { class: 'why' },
    h(
      'p',
      { class: 'why-total' },
      'Fused score ',
      h('strong', {}, formatScore(explanation.score)),
      ` = semantic ${formatScore(semantic.contribution)} + text ${formatScore(text.contribution)}`,
    ),
    fusionBar(explanation),
    sidesTable(explanation, context),
    h(
      'dl',
      { class: 'measures' },
      h(
        'div',
        {},
        h('dt', {}, 'Semantic similarity'),
        h(
          'dd',
          { class: 'with-bar' },
          bar(similarity, 'semantic', context.semanticFloor),
          h(
            'span',
            { class: 'number' },
            `${formatDecimal(semantic.similarity, 3)} (floor ${formatDecimal(context.semanticFloor, 2)})`,
          ),
        ),
      ),
      h(
        'div',
        {},
        h('dt', {}, 'Text score'),
        h(
          'dd',
          { class: 'with-bar' },
          bar(text.coverage, 'text'),
          h(
            'span',
            { class: 'number' },
            `${formatDecimal(text.score, 2)}, covering ${formatPercent(text.coverage)} of the search`,
          ),
        ),
      ),
    ),
    unmatchedNote(explanation),
    termsTable(explanation),
    kindLegend(explanation),
  );
}

/** A table with a caption, a header row of `columns`, and `rows` as its body. */
function captionedTable(
  className: string,
  caption: string,
  columns: string[],
  rows: HTMLElement[],
): HTMLTableElement {
  return h(
    'table',
    { class: className },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...columns.map((column) => h('th', { scope: 'col' }, column)))),
    h('tbody', {}, ...rows),
  );
}
