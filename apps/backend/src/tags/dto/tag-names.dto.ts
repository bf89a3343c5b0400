import { TextField } from '@rt/contracts';

/** `names` of a tag in a request: French is the canonical name and required; the others may be null. */
export class TagNamesDto {
  @TextField({ max: 255, example: 'Randonnée', description: 'The canonical name.' })
  fr!: string;

  @TextField({
    max: 255,
    optional: true,
    nullable: true,
    example: 'Hiking',
    description: 'Absent or null: none.',
  })
  en?: string | null;

  @TextField({
    max: 255,
    optional: true,
    nullable: true,
    example: 'Wandern',
    description: 'Absent or null: none.',
  })
  de?: string | null;
}
