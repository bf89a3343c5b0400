import { IsInt, IsString, Matches, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { AppError } from './app-error';
import { WIRE_NAME_STYLE } from './field-style';
import { ChecksItems, createValidationPipe, toFieldErrors } from './validation.pipe';

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

class CodesDto implements ChecksItems {
  @IsString({ each: true })
  codes!: string[];

  @IsString()
  note!: string;

  itemErrors() {
    return Object.fromEntries(
      this.codes.flatMap((code, index) =>
        code.startsWith('c') ? [] : [[`codes.${index}`, ['Not a code.']]],
      ),
    );
  }
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => (e as AppError).toBody() as { errors: Record<string, string[]> },
  );

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

  it('keeps one message per path, its first problem (D-74)', () => {
    expect(
      toFieldErrors([
        { property: 'a', constraints: { x: 'one', z: 'three' }, children: [] },
        { property: 'a', constraints: { y: 'two' }, children: [] },
      ]),
    ).toEqual({ a: ['one'] });
  });

  it("prefers a field's own rule to the generic nested message, and says nothing of the parts of a refused field", () => {
    expect(
      toFieldErrors([
        {
          property: 'names',
          constraints: {
            nestedValidation: 'nested property names must be either object or array',
            own: 'Own.',
          },
          children: [{ property: '0', constraints: { x: 'Part.' }, children: [] }],
        },
        {
          property: 'steps',
          children: [{ property: '1', children: [{ property: 'time', constraints: { t: 'T.' } }] }],
        },
      ]),
    ).toEqual({ names: ['Own.'], 'steps.1.time': ['T.'] });
  });

  it('speaks of unsafe input in the style it is given', async () => {
    const named = await refusal(
      createValidationPipe().transform({ first_name: 'a\u0000' }, { type: 'body', metatype: TourDto }),
    );
    expect(named?.errors).toEqual({ first_name: ['The first name field must not contain NUL characters.'] });
    const wire = await refusal(
      createValidationPipe({ style: WIRE_NAME_STYLE }).transform(
        { hide_invalid: 'a\u0000' },
        { type: 'query', metatype: TourDto },
      ),
    );
    expect(wire?.errors).toEqual({ hide_invalid: ['hide_invalid must not contain NUL characters.'] });
  });

  it("refuses a DTO's item errors under their own keys once its fields pass, and only then", async () => {
    const pipe = createValidationPipe();
    const metadata = { type: 'body' as const, metatype: CodesDto };
    expect(await refusal(pipe.transform({ codes: ['c1', 'x', 'c3', 'y'], note: 'n' }, metadata))).toEqual(
      expect.objectContaining({ errors: { 'codes.1': ['Not a code.'], 'codes.3': ['Not a code.'] } }),
    );
    // A field error comes alone: the items are checked only once every field is fine.
    expect(await refusal(pipe.transform({ codes: ['x'], note: 3 }, metadata))).toEqual(
      expect.objectContaining({ errors: { note: [expect.any(String)] } }),
    );
    // The class's method runs, not a field of the body that bears its name.
    expect(await refusal(pipe.transform({ codes: ['x'], note: 'n', itemErrors: 'no' }, metadata))).toEqual(
      expect.objectContaining({ errors: { 'codes.0': ['Not a code.'] } }),
    );
    await expect(pipe.transform({ codes: ['c1'], note: 'n' }, metadata)).resolves.toBeInstanceOf(CodesDto);
  });
});
