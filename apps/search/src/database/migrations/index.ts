import { EnableVector1763900000000 } from './1763900000000-EnableVector';
import { AddTravelOffers1763950000000 } from './1763950000000-AddTravelOffers';
import { AddReindexRuns1795435855743 } from './1795435855743-AddReindexRuns';
import { AddSearchTerms1795500000000 } from './1795500000000-AddSearchTerms';
import { AddTextSide1795600000000 } from './1795600000000-AddTextSide';
import { ImpactOrderedPostings1795700000000 } from './1795700000000-ImpactOrderedPostings';
import { AddQueryExpansions1795800000000 } from './1795800000000-AddQueryExpansions';
import { AddIndexGeneration1795900000000 } from './1795900000000-AddIndexGeneration';
import { AddPostingBlocks1796000000000 } from './1796000000000-AddPostingBlocks';
import { AddBlocksGeneration1796100000000 } from './1796100000000-AddBlocksGeneration';
import { AddPostingFields1796250000000 } from './1796250000000-AddPostingFields';
import { IndexCompoundParts1796350000000 } from './1796350000000-IndexCompoundParts';
import { AddOfferPlaces1796450000000 } from './1796450000000-AddOfferPlaces';

/** Every search migration, in order. Listed explicitly so a built copy and the sources agree. */
export const searchMigrations: Function[] = [
  EnableVector1763900000000,
  AddTravelOffers1763950000000,
  AddReindexRuns1795435855743,
  AddSearchTerms1795500000000,
  AddTextSide1795600000000,
  ImpactOrderedPostings1795700000000,
  AddQueryExpansions1795800000000,
  AddIndexGeneration1795900000000,
  AddPostingBlocks1796000000000,
  AddBlocksGeneration1796100000000,
  AddPostingFields1796250000000,
  IndexCompoundParts1796350000000,
  AddOfferPlaces1796450000000,
];
