import { IsInt, IsString, Matches, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { AppError } from './app-error';
import { createValidationPipe, toFieldErrors } from './validation.pipe';

class StepDto {
  @Matches(/^\d{2}:\d{2}$/)
  time!: string;
}

class TourDto {
  @IsString()
  name!: string;

  @ValidateNested({ each: true })
  @Type(() => StepDto)
  steps!: StepDto[];

  @IsInt({ each: true })
  @Min(1, { each: true })
  ids!: number[];
}

describe('validation pipe', () => {
  it('reports nested and array fields with dotted paths in a 422 AppError', async () => {
    const pipe = createValidationPipe();
    const error = await pipe
      .transform(
        { name: 3, steps: [{ time: '10:00' }, { time: 'noon' }], ids: [1, 0] },
        { type: 'body', metatype: TourDto },
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(AppError);
    const body = (error as AppError).toBody() as { errors: Record<string, string[]>; message: string };
    expect((error as AppError).status).toBe(422);
    expect(Object.keys(body.errors).sort()).toEqual(['ids', 'name', 'steps.1.time']);
    expect(body.message).toContain('(and 2 more errors)');
  });

  it('merges messages of the same path', () => {
    expect(
      toFieldErrors([
        { property: 'a', constraints: { x: 'one' }, children: [] },
        { property: 'a', constraints: { y: 'two' }, children: [] },
      ]),
    ).toEqual({ a: ['one', 'two'] });
  });
});
