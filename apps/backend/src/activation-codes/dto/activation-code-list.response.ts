import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from '@rt/contracts';
import { ActivationCodeResponseDto } from './activation-code.response';

/** `GET /activation-codes`: one page, newest first (created_at descending, then full_code). */
export class ActivationCodeListResponseDto {
  @ApiProperty({ type: () => ActivationCodeResponseDto, isArray: true })
  data!: ActivationCodeResponseDto[];

  @ApiProperty({ type: () => PageMetaDto })
  meta!: PageMetaDto;
}
