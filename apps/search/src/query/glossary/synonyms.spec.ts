import { parseSynonyms, SynonymsError } from './synonyms';

describe('parseSynonyms (Solr format)', () => {
  it('reads multi-way sets and one-way mappings, folded, skipping comments and blank lines', () => {
    const text = [
      '# operator synonyms',
      '',
      'Glamping, luxury camping  # tents',
      'Kraxeln, Bergsteigen => climbing',
    ].join('\n');
    expect(parseSynonyms(text, 'syn.txt')).toEqual([
      { kind: 'synonym', from: ['glamping', 'luxury camping'], to: ['glamping', 'luxury camping'] },
      { kind: 'synonym', from: ['kraxeln', 'bergsteigen'], to: ['climbing'] },
    ]);
    expect(parseSynonyms('', 'syn.txt')).toEqual([]);
  });

  it('refuses a malformed line, naming it', () => {
    const parse = (text: string) => () => parseSynonyms(text, 'syn.txt');
    expect(parse('a, b\n\na => b => c')).toThrow(new SynonymsError('syn.txt', 3, 'more than one "=>"'));
    expect(parse('a, b\nalone')).toThrow('syn.txt, line 2: a set needs two words or more ("a, b")');
    expect(parse(' => b')).toThrow('syn.txt, line 1: nothing on the left of "=>"');
    expect(parse('a =>')).toThrow('syn.txt, line 1: nothing on the right of "=>"');
    expect(parse('a,, b')).toThrow('syn.txt, line 1: word 2 is empty');
    expect(parse('a, !!')).toThrow('syn.txt, line 1: "!!" holds no letter or digit');
  });
});
