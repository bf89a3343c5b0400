import { NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { AppError } from './app-error';
import { ErrorCode } from './error-code';
import { toAppError } from './http-exception.filter';

describe('toAppError', () => {
  it('keeps an AppError as is', () => {
    const error = AppError.validation({ full_code: ['taken'] }, 'already_claimed');
    expect(toAppError(error)).toBe(error);
    expect(error.toBody()).toEqual({ message: 'taken', errors: { full_code: ['taken'] }, reason: 'already_claimed' });
  });

  it('maps Nest exceptions to stable codes', () => {
    expect(toAppError(new NotFoundException()).toBody()).toEqual({ message: 'Not found.', error: 'not_found' });
    expect(toAppError(new PayloadTooLargeException()).code).toBe(ErrorCode.PayloadTooLarge);
  });

  it('maps body-parser failures to client errors', () => {
    expect(toAppError(Object.assign(new SyntaxError('x'), { type: 'entity.parse.failed' })).status).toBe(400);
    expect(toAppError(Object.assign(new Error('x'), { type: 'entity.too.large' })).status).toBe(413);
  });

  it('turns anything else into a 500 without details', () => {
    expect(toAppError(new Error('db password is hunter2')).toBody()).toEqual({
      message: 'Internal server error.',
      error: 'internal_error',
    });
  });

  it('gives 429 a Retry-After header', () => {
    expect(AppError.tooManyRequests(12.2).headers).toEqual({ 'Retry-After': '13' });
  });
});
