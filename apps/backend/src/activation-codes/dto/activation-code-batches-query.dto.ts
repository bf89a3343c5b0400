import { ApiPropertyOptional } from '@nestjs/swagger';
import { PageQueryDto, UuidField } from '@rt/contracts';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `GET /activation-codes/batches`: filters and the page (per_page 25 by default, capped silently at 100). */
export class ActivationCodeBatchesQueryDto extends PageQueryDto {
  @UuidField({ optional: true, description: "Only this organization's batches." })
  organisation_id?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Only batches with this number.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'The batch number field must be an integer.' })
  @Min(1, { message: 'The batch number field must be at least 1.' })
  @Max(2147483647, { message: 'The batch number field must not be greater than 2147483647.' })
  batch_number?: number;
}
