import { readFileSync } from 'node:fs';
import { foldWords } from '../../analysis/tokenizer';
import { loadTravelGlossary, TRAVEL_GLOSSARY_PATH } from '../glossary';
import {
  candidatesTsv,
  glossaryCandidates,
  loadReview,
  mergeKeptForms,
  parseReview,
  rawConcepts,
  ReviewError,
} from './glossary-candidates';
import { decodeThesaurus, parseThesaurus, plainSynonym, ThesaurusError } from './mythes';

const folded = (word: string) => foldWords(word).join(' ');

describe('the MyThes reader', () => {
  const dat = [
    'UTF-8',
    'plage|1',
    '(Nom)|sable|rivage|grève',
    'strand|2',
    '-|Badestrand|Strand',
    '-|Küste|Strand|Ufer|Gestade (geh., veraltet)|Ort (Oberbegriff)',
    '',
  ].join('\n');

  it('reads each entry with its meanings, keyed in lower case', () => {
    const thesaurus = parseThesaurus(dat);
    expect(thesaurus.get('plage')).toEqual([{ partOfSpeech: '(Nom)', words: ['sable', 'rivage', 'grève'] }]);
    expect(thesaurus.get('strand')?.map((meaning) => meaning.words.length)).toEqual([2, 5]);
  });

  it('decodes the file in the encoding its first line names', () => {
    const latin1 = Buffer.from('ISO8859-1\nplage|1\n(Nom)|grève\n', 'latin1');
    expect(parseThesaurus(decodeThesaurus(latin1)).get('plage')?.[0].words).toEqual(['grève']);
    expect(() => decodeThesaurus(Buffer.from('KOI8-R\n'))).toThrow(ThesaurusError);
  });

  it('refuses an entry with fewer meanings than it announces, naming the line', () => {
    expect(() => parseThesaurus('UTF-8\nplage|2\n(Nom)|sable\n')).toThrow('line 4');
    expect(() => parseThesaurus('UTF-8\nplage\n')).toThrow('line 2');
  });

  it('drops notes, broader words and antonyms from a synonym', () => {
    expect(plainSynonym('Gestade (geh., veraltet)')).toBe('Gestade');
    expect(plainSynonym('Ort (Oberbegriff)')).toBeUndefined();
    expect(plainSynonym('formation (generic term)')).toBeUndefined();
    expect(plainSynonym('rural (antonym)')).toBeUndefined();
    expect(plainSynonym('(irgendwohin) wandern')).toBe('wandern');
  });
});

describe('the glossary candidates', () => {
  const glossary = [
    'id\tdomain\tfr\tde\ten\tit',
    'beach\tlandscape\tplage; plages\tStrand\tbeach\tspiaggia',
    'geneva\tplace\tGenève\tGenf\tGeneva\tGinevra',
    '',
  ].join('\n');
  const thesaurus = parseThesaurus(
    'UTF-8\nplage|1\n(Nom)|sable|plages|rivage\ngenève|1\n(Nom)|ville\nlittoral|1\n(Nom)|côte|plage\n',
  );

  it('proposes the synonyms of a concept’s words and the entries that list them, not the words it holds, not for names', () => {
    const candidates = glossaryCandidates(rawConcepts(glossary), { fr: [thesaurus] });
    expect(candidates.map(({ concept, form, foundBy }) => [concept, form, foundBy])).toEqual([
      ['beach', 'sable', 'plage'],
      ['beach', 'rivage', 'plage'],
      ['beach', 'littoral', 'plage'],
    ]);
    const review = parseReview(
      'concept\tlanguage\tform\tfound_by\tverdict\treason\nbeach\tfr\tsable\tplage\treject\tsand\n',
    );
    expect(candidatesTsv(candidates, review).split('\n')[1]).toBe('beach\tfr\tsable\tplage\tNom\treject');
  });

  it('merges the kept forms into their concept’s language, once, leaving the rest as it is', () => {
    const review = parseReview(
      [
        'concept\tlanguage\tform\tfound_by\tverdict\treason',
        'beach\tfr\trivage\tplage\tkeep\tthe shore',
        'beach\tfr\tsable\tplage\treject\tsand',
        'beach\tde\tstrand\tStrand\tkeep\tsame word, folded',
        'beach\tit\tlido\tspiaggia\tkeep\ta bathing beach',
      ].join('\n'),
    );
    const merged = mergeKeptForms(glossary, review);
    expect(merged.split('\n')[1]).toBe(
      'beach\tlandscape\tplage; plages; rivage\tStrand\tbeach\tspiaggia; lido',
    );
    expect(merged.split('\n')[2]).toBe('geneva\tplace\tGenève\tGenf\tGeneva\tGinevra');
    expect(mergeKeptForms(merged, review)).toBe(merged);
    expect(() =>
      mergeKeptForms(
        glossary,
        parseReview('concept\tlanguage\tform\tfound_by\tverdict\treason\nbeaches\tfr\tx\ty\tkeep\tz\n'),
      ),
    ).toThrow('beaches');
  });

  it('refuses a review line without a reason, with an unknown verdict, or reviewed twice', () => {
    const header = 'concept\tlanguage\tform\tfound_by\tverdict\treason\n';
    expect(() => parseReview(`${header}beach\tfr\tsable\tplage\tkeep\t\n`)).toThrow(ReviewError);
    expect(() => parseReview(`${header}beach\tfr\tsable\tplage\tmaybe\tsand\n`)).toThrow('verdict');
    expect(() =>
      parseReview(`${header}beach\tfr\tsable\tplage\tkeep\ta\nbeach\tfr\tSable\tplage\treject\tb\n`),
    ).toThrow('line 2');
  });
});

describe('the committed review', () => {
  const review = loadReview();
  const concepts = loadTravelGlossary();

  it('reviews forms of the glossary’s concepts, and the glossary holds every kept form', () => {
    const byId = new Map(concepts.map((concept) => [concept.id, concept]));
    expect(review.filter((form) => form.verdict === 'keep').length).toBeGreaterThan(100);
    for (const form of review) {
      const concept = byId.get(form.concept);
      expect({ form, known: concept !== undefined }).toEqual({ form, known: true });
      if (form.verdict === 'keep') {
        expect({ form, held: concept?.words[form.language].includes(folded(form.form)) }).toEqual({
          form,
          held: true,
        });
      }
    }
  });

  it('is merged: merging it again changes nothing', () => {
    const text = readFileSync(TRAVEL_GLOSSARY_PATH, 'utf8');
    expect(mergeKeptForms(text, review)).toBe(text);
  });

  it('leaves no rejected form in its concept', () => {
    const byId = new Map(concepts.map((concept) => [concept.id, concept]));
    for (const form of review.filter((each) => each.verdict === 'reject')) {
      const held = byId.get(form.concept)?.words[form.language].includes(folded(form.form));
      expect({ form, held }).toEqual({ form, held: false });
    }
  });
});
