import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { COUNTRIES_PATH, PLACES_PATH } from '../query/gazetteer/gazetteer';
import { PLACE_PREPOSITIONS_PATH } from '../query/gazetteer/place-finder';
import { CONCEPT_HIERARCHY_PATH, TRAVEL_GLOSSARY_PATH } from '../query/glossary/glossary';
import { FUNCTION_WORDS_PATH } from '../query/glossary/language-guess';

const APP = join(__dirname, '..', '..');

describe('the reviewed data files the service reads at start', () => {
  it('are in package.json `files`, which the image ships (pnpm deploy)', () => {
    const { files } = JSON.parse(readFileSync(join(APP, 'package.json'), 'utf8')) as { files: string[] };
    const read = [
      TRAVEL_GLOSSARY_PATH,
      CONCEPT_HIERARCHY_PATH,
      FUNCTION_WORDS_PATH,
      COUNTRIES_PATH,
      PLACES_PATH,
      PLACE_PREPOSITIONS_PATH,
    ].map((path) => relative(APP, path));
    expect(read.filter((path) => !files.includes(path))).toEqual([]);
  });
});
