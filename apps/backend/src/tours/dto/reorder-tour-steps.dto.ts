import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';

/** `PUT /tour/{id}/steps/reorder`: every step id of the tour, once each, in the new order. */
export class ReorderTourStepsDto {
  @ValidateBy({
    name: 'stepIds',
    validator: {
      validate: (value: unknown) =>
        Array.isArray(value) && value.length <= 1000 && value.every((item) => typeof item === 'string'),
      defaultMessage: () => 'The step ids field must be a list of step ids.',
    },
  })
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    isArray: true,
    description: "A permutation of the tour's step ids (each exactly once), else 422.",
  })
  step_ids!: string[];
}
