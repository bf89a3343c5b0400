import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Language } from '../../analysis/languages';
import { TRAVEL_GLOSSARY_PATH } from '../glossary';
import {
  candidatesTsv,
  glossaryCandidates,
  loadReview,
  mergeKeptForms,
  rawConcepts,
} from './glossary-candidates';
import { loadThesaurus } from './mythes';
import type { Thesaurus } from './mythes';

/**
 * `pnpm --filter search glossary:candidates [--thesauri <dir>] [--out <file>] [--merge]`
 * (GLOSSARY.md, "Words from the thesauri"): reads the MyThes thesauri of LibreOffice (the Debian
 * packages mythes-fr, mythes-de, mythes-de-ch, mythes-it, mythes-en-us, extracted with
 * `dpkg-deb -x`; `<dir>` holds their `.dat` files, by default
 * ~/.cache/road-trip/mythes/usr/share/mythes) and writes each concept's candidate words per
 * language, with the review's verdict on each, to `<file>` (by default
 * ~/.cache/road-trip/glossary-candidates.tsv: thesaurus data stays out of the repository). With
 * `--merge`, adds the forms glossary-review.tsv keeps to travel-glossary.tsv. Not run by CI: the
 * thesauri are build-time inputs, never shipped.
 */

/** Each language's thesaurus files (the Swiss German one writes "ss" for "ß"). */
const THESAURUS_FILES: Record<Language, string[]> = {
  fr: ['thes_fr.dat'],
  de: ['th_de_DE_v2.dat', 'th_de_CH_v2.dat'],
  en: ['th_en_US_v2.dat'],
  it: ['th_it_IT_v2.dat'],
};

function main(): void {
  const { values } = parseArgs({
    options: {
      thesauri: {
        type: 'string',
        default: join(homedir(), '.cache', 'road-trip', 'mythes', 'usr', 'share', 'mythes'),
      },
      out: { type: 'string', default: join(homedir(), '.cache', 'road-trip', 'glossary-candidates.tsv') },
      merge: { type: 'boolean', default: false },
    },
  });
  const reviewed = loadReview();
  const glossaryText = readFileSync(TRAVEL_GLOSSARY_PATH, 'utf8');
  if (values.merge) {
    writeFileSync(TRAVEL_GLOSSARY_PATH, mergeKeptForms(glossaryText, reviewed));
    console.log(
      `merged ${reviewed.filter((form) => form.verdict === 'keep').length} kept forms into ${TRAVEL_GLOSSARY_PATH}`,
    );
    return;
  }
  const thesauri: Partial<Record<Language, Thesaurus[]>> = {};
  for (const [language, files] of Object.entries(THESAURUS_FILES) as [Language, string[]][]) {
    const paths = files.map((file) => join(values.thesauri, file));
    const missing = paths.filter((path) => !existsSync(path));
    if (missing.length)
      throw new Error(`no thesaurus ${missing.join(', ')}: see GLOSSARY.md, "Words from the thesauri"`);
    thesauri[language] = paths.map(loadThesaurus);
  }
  const candidates = glossaryCandidates(rawConcepts(glossaryText), thesauri);
  writeFileSync(values.out, candidatesTsv(candidates, reviewed));
  const open =
    candidates.length -
    candidates.filter((candidate) =>
      reviewed.some(
        (form) =>
          form.concept === candidate.concept &&
          form.language === candidate.language &&
          form.form === candidate.form,
      ),
    ).length;
  console.log(`${candidates.length} candidates (${open} not reviewed) written to ${values.out}`);
}

main();
