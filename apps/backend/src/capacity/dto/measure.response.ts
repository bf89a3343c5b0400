import { ApiProperty } from '@nestjs/swagger';

export const EXACTNESSES = ['exact', 'partial', 'unknown', 'unlimited'] as const;

/**
 * A capacity or a saturation with its exactness, never a bare number. The value is null when the
 * exactness is `unknown` or `unlimited`.
 */
export class MeasureDto {
  @ApiProperty({
    type: 'number',
    nullable: true,
    example: 12,
    description:
      'Capacities: travellers per departure day (an integer). Saturations: a fraction, 0.4 meaning ' +
      '40% (may exceed 1 when demand is above capacity). Null when `unknown` or `unlimited`.',
  })
  value!: number | null;

  @ApiProperty({
    enum: EXACTNESSES,
    enumName: 'Exactness',
    description:
      '`exact`: the value is the figure. `partial`: some parts are unknown; the value comes from ' +
      'the known parts (for a sum a lower bound, for a minimum an upper bound). `unknown`: nothing ' +
      'is known (value null). `unlimited`: no bound (value null); as a saturation, demand on a ' +
      'capacity of exactly 0 (an infinite fill rate).',
  })
  exactness!: (typeof EXACTNESSES)[number];
}
