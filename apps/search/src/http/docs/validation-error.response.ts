import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ValidationErrorResponseDto } from '@rt/contracts';

/**
 * The contract's 422 example: what `GET /travels?size=101` answers, in this service's style (the
 * parameter as clients send it, docs/decisions.md D-74). test/error-style.e2e-spec.ts sends that
 * request and compares the answer with the example the contract shows.
 */
const VALIDATION_ERROR_EXAMPLE = {
  message: 'size must be an integer from 1 to 100.',
  errors: { size: ['size must be an integer from 1 to 100.'] },
};

/**
 * The shared 422 body (docs/decisions.md D-3) under its shared schema name, with this service's
 * example instead of the backend's ("The name field is required."). The examples are set on the
 * subclass's prototype: a redeclared property could not carry a decorator without shadowing the
 * base class's.
 */
@ApiSchema({ name: 'ValidationErrorResponseDto' })
export class SearchValidationErrorResponseDto extends ValidationErrorResponseDto {}
ApiProperty({ example: VALIDATION_ERROR_EXAMPLE.message })(
  SearchValidationErrorResponseDto.prototype,
  'message',
);
ApiProperty({ example: VALIDATION_ERROR_EXAMPLE.errors })(
  SearchValidationErrorResponseDto.prototype,
  'errors',
);
