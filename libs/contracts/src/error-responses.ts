import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** The 422 body of the envelope (docs/decisions.md D-3), for the generated contracts. */
export class ValidationErrorResponseDto {
  @ApiProperty({ example: 'The name field is required.' })
  message!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'Each field (dotted paths for nested ones) with one message, its first problem.',
    example: { name: ['The name field is required.'] },
  })
  errors!: Record<string, string[]>;

  @ApiPropertyOptional({ description: 'A stable rejection code, on some 422 answers.' })
  reason?: string;
}

/** Every other error body of the envelope (docs/decisions.md D-3). */
export class ErrorResponseDto {
  @ApiProperty({ example: 'Not found.' })
  message!: string;

  @ApiProperty({ description: 'A stable machine code.', example: 'not_found' })
  error!: string;
}
