import { TextField } from '@rt/contracts';
import { SingleLine } from '../../common/single-line';

/** `names` of a tag in a request: French is the canonical name and required; the others may be null. */
export class TagNamesDto {
  @SingleLine()
  @TextField({ max: 255, example: 'Randonnée', description: 'The canonical name.' })
  fr!: string;

  @SingleLine()
  @TextField({
    max: 255,
    optional: true,
    nullable: true,
    example: 'Hiking',
    description: 'Absent or null: none.',
  })
  en?: string | null;

  @SingleLine()
  @TextField({
    max: 255,
    optional: true,
    nullable: true,
    example: 'Wandern',
    description: 'Absent or null: none.',
  })
  de?: string | null;
}
