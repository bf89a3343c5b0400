import { PageQueryDto, QueryIntegerField, UuidField } from '@rt/contracts';

/** `GET /activation-codes/batches`: filters and the page (per_page 25 by default, capped silently at 100). */
export class ActivationCodeBatchesQueryDto extends PageQueryDto {
  @UuidField({ optional: true, description: "Only this organization's batches." })
  organisation_id?: string;

  @QueryIntegerField({ min: 1, max: 2147483647, description: 'Only batches with this number.' })
  batch_number?: number;
}
