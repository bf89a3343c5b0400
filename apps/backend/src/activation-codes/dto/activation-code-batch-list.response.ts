import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '@rt/contracts';
import { ActivationCodeBatchResponseDto } from './activation-code-batch.response';

/** `GET /activation-codes/batches`: one page, newest first. */
export class ActivationCodeBatchListResponseDto {
  @ApiProperty({ type: () => ActivationCodeBatchResponseDto, isArray: true })
  data!: ActivationCodeBatchResponseDto[];

  @ApiProperty({ type: () => PageMetaDto })
  meta!: PageMetaDto;
}
