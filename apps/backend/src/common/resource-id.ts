import { applyDecorators, Param, PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { AppError } from '@rt/errors';
import { isUUID } from 'class-validator';
import { ApiResourceNotFoundResponse } from './api-responses';

/** The next turn of the event loop, after every promise job queued so far. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The path id of a resource. Backend ids are UUIDs, so any other value names no resource: the
 * feature's own 404 (`notFound`), as for an id that names none. Services behind it may take the id
 * as a UUID.
 *
 * Order: the body and the query are validated first (422), then the id (404), as for an unknown
 * id, which the service looks up once the request is valid. Nest resolves a handler's arguments at
 * once (`Promise.all`) and answers the first refusal; the validation pipe's work runs on promise
 * jobs, so refusing one turn later leaves it the first word.
 */
export class ResourceIdPipe implements PipeTransform<unknown, Promise<string>> {
  constructor(private readonly notFound: () => AppError) {}

  async transform(value: unknown): Promise<string> {
    if (typeof value === 'string' && isUUID(value)) return value;
    await nextTurn();
    throw this.notFound();
  }
}

/** `@Param(name)` that answers the feature's 404 for a value that is not a UUID (ResourceIdPipe). */
export const ResourceId = (name: string, notFound: () => AppError): ParameterDecorator =>
  Param(name, new ResourceIdPipe(notFound));

/**
 * The OpenAPI side of ResourceId: the path parameter `name` naming a `resource` by its UUID (any
 * other value names none: 404 `not_found`).
 */
export const ApiResourceIdParam = (resource: string, name = 'id') =>
  ApiParam({
    name,
    format: 'uuid',
    description: `The ${resource}; an id that is not a UUID names none (404 \`not_found\`).`,
  });

/**
 * A resource that routes name by a path id, declared once per controller: `route()` writes the
 * path parameter and its 404 into the contract, `param()` reads the id (ResourceId) with the
 * feature's own 404.
 */
export class PathResource {
  constructor(
    private readonly resource: string,
    private readonly notFound: () => AppError,
    private readonly name = 'id',
  ) {}

  /** The parameter and 404 `not_found`: `missing` says when (by default, an id that names none). */
  route(missing = `no ${this.resource} has this id (a malformed id included).`): MethodDecorator {
    return applyDecorators(
      ApiResourceIdParam(this.resource, this.name),
      ApiResourceNotFoundResponse(missing),
    );
  }

  param(): ParameterDecorator {
    return ResourceId(this.name, this.notFound);
  }
}
