import type { ArgumentMetadata } from '@nestjs/common';
import { AppError, createValidationPipe, ErrorCode } from '@rt/errors';
import { IsString } from 'class-validator';
import { ResourceIdPipe } from './resource-id';

const ID = '0b9c6f0e-3c4a-4f8e-9a51-2d7c1e5f6a70';
const tourNotFound = () => AppError.notFound('Tour not found.');

class NameDto {
  @IsString()
  name!: string;
}

describe('ResourceIdPipe', () => {
  const pipe = new ResourceIdPipe(tourNotFound);

  it('passes a UUID through as it came, in any case', async () => {
    await expect(pipe.transform(ID)).resolves.toBe(ID);
    await expect(pipe.transform(ID.toUpperCase())).resolves.toBe(ID.toUpperCase());
  });

  it.each([['nope'], [''], ['42'], [`${ID}0`], [` ${ID}`], [undefined], [42]])(
    "answers the feature's own 404 for %j",
    async (value) => {
      const refusal = pipe.transform(value);
      await expect(refusal).rejects.toBeInstanceOf(AppError);
      await expect(refusal).rejects.toMatchObject({ code: ErrorCode.NotFound, message: 'Tour not found.' });
    },
  );

  describe('beside a body, resolved together as Nest resolves a handler’s arguments', () => {
    const validation = createValidationPipe();
    const idParam: ArgumentMetadata = { type: 'param', data: 'id', metatype: String };
    const bodyParam: ArgumentMetadata = { type: 'body', metatype: NameDto };
    /** The global pipe then the parameter's pipe for the id, the global pipe for the body. */
    const resolve = (id: unknown, body: unknown) =>
      Promise.all([
        (async () => pipe.transform(await validation.transform(id, idParam)))(),
        validation.transform(body, bodyParam),
      ]);

    it('lets an invalid body be refused first (422), as for an unknown id', async () => {
      await expect(resolve('nope', { name: 42 })).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        fieldErrors: { name: expect.any(Array) },
      });
    });

    it('lets the body be refused first however many promise jobs its validation takes', async () => {
      const slowRefusal = async () => {
        for (let job = 0; job < 1000; job++) await Promise.resolve();
        throw AppError.validation({ name: ['The name field is required.'] });
      };
      await expect(Promise.all([pipe.transform('nope'), slowRefusal()])).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
      });
    });

    it('refuses the malformed id (404) once the body is valid', async () => {
      await expect(resolve('nope', { name: 'Alps' })).rejects.toMatchObject({ code: ErrorCode.NotFound });
      await expect(resolve(ID, { name: 'Alps' })).resolves.toEqual([ID, { name: 'Alps' }]);
    });
  });
});
