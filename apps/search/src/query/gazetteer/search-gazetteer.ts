import { Injectable } from '@nestjs/common';
import { loadGazetteer } from './gazetteer';
import type { Gazetteer } from './gazetteer';

/**
 * The gazetteer a search's places are read and resolved with (QueryExpansionService; D-88b), read
 * at the first need: one provider, so that a test can give the places points of its own.
 */
@Injectable()
export class SearchGazetteer {
  private loaded?: Gazetteer;

  gazetteer(): Gazetteer {
    return (this.loaded ??= loadGazetteer());
  }
}
