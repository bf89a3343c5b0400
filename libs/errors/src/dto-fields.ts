import type { INestApplication, PipeTransform, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { ApplicationConfig } from '@nestjs/core';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import { AppError } from './app-error';
import { ErrorCode } from './error-code';
import { FieldStyle, styleProblems } from './field-style';

/**
 * The error-style walk of docs/decisions.md D-74, for the services' tests: every request DTO an
 * app validates (each `@Body()` and `@Query()` class of its controllers, read from the running
 * app), every field of it, given wrong values through the app's own global pipe. Each refusal
 * must keep the service's style (styleProblems), and each field must refuse at least one of the
 * values, so a new DTO or field is covered without anyone listing it.
 */

/** One DTO a route validates. */
export interface DtoInput {
  /** `ToursController.create`. */
  route: string;
  kind: 'body' | 'query';
  dto: Type;
}

/** What a body field may be sent that some field refuses: wrong types, empty, too long, bad text. */
export const WRONG_BODY_VALUES: readonly unknown[] = [
  1.5,
  'x',
  '',
  null,
  true,
  {},
  [1],
  'x'.repeat(6000),
  '\u0000',
];

/** What a query parameter may arrive as: text that is no number, out of bounds, repeated, nested. */
export const WRONG_QUERY_VALUES: readonly unknown[] = [
  'x',
  '-1',
  '0',
  '1.5',
  '1e400',
  'x'.repeat(6000),
  ['1', '2'],
  { a: '1' },
  '\u0000',
];

interface RouteArgument {
  index: number;
}

/** Every `@Body()` and `@Query()` DTO of the app's controllers (plain types such as `string` are not DTOs). */
export function dtoInputsOf(app: INestApplication): DtoInput[] {
  const inputs: DtoInput[] = [];
  const seen = new Set<string>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller?.prototype) continue;
      for (const method of Object.getOwnPropertyNames(controller.prototype)) {
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) as
          Record<string, RouteArgument> | undefined;
        if (!args) continue;
        const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, method) ??
          []) as Type[];
        for (const [key, argument] of Object.entries(args)) {
          const paramtype = Number(key.split(':')[0]);
          const kind =
            paramtype === Number(RouteParamtypes.BODY)
              ? 'body'
              : paramtype === Number(RouteParamtypes.QUERY)
                ? 'query'
                : null;
          const dto = types[argument.index];
          if (!kind || !dto || [String, Number, Boolean, Object, Array].includes(dto as never)) continue;
          const route = `${controller.name}.${method}`;
          if (seen.has(`${route}:${kind}`)) continue;
          seen.add(`${route}:${kind}`);
          inputs.push({ route, kind, dto });
        }
      }
    }
  }
  return inputs;
}

/** The validated fields of a DTO, inherited ones included. */
export function validatedFieldsOf(dto: Type): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  return [...new Set(metadata.map((entry) => entry.propertyName))];
}

/** The app's global pipes, as `useGlobalPipes` installed them (Nest keeps them in its ApplicationConfig). */
export function globalPipesOf(app: INestApplication): PipeTransform[] {
  return (app as unknown as { config: ApplicationConfig }).config.getGlobalPipes();
}

export interface DtoWalk {
  /** `ToursController.create body name`: every field walked. */
  fields: string[];
  /** Fields that refused none of the wrong values: the walk does not reach them. */
  unrefused: string[];
  /** Refusals out of style, and anything but a 422 AppError. */
  problems: string[];
}

/** Runs every wrong value through every field of every DTO the app validates, with the app's pipes. */
export async function walkDtoFields(app: INestApplication, style: FieldStyle): Promise<DtoWalk> {
  const pipes = globalPipesOf(app);
  const walk: DtoWalk = { fields: [], unrefused: [], problems: [] };
  for (const { route, kind, dto } of dtoInputsOf(app)) {
    for (const field of validatedFieldsOf(dto)) {
      const name = `${route} ${kind} ${field}`;
      walk.fields.push(name);
      let refused = false;
      for (const value of kind === 'body' ? WRONG_BODY_VALUES : WRONG_QUERY_VALUES) {
        const shown = JSON.stringify(value)?.slice(0, 20);
        try {
          let input: unknown = { [field]: value };
          for (const pipe of pipes) input = await pipe.transform(input, { type: kind, metatype: dto });
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== ErrorCode.ValidationFailed) {
            walk.problems.push(`${name} = ${shown}: not a 422 but ${String(error)}`);
            continue;
          }
          const body = error.toBody() as { errors: Record<string, unknown> };
          if (Object.keys(body.errors).some((path) => path === field || path.startsWith(`${field}.`))) {
            refused = true;
          }
          for (const problem of styleProblems(body, style))
            walk.problems.push(`${name} = ${shown}: ${problem}`);
        }
      }
      if (!refused) walk.unrefused.push(name);
    }
  }
  return walk;
}
