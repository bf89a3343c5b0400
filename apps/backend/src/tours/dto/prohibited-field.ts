import { ValidateBy, ValidationArguments } from 'class-validator';

/**
 * A field the body must not carry (`status` of `POST /tour`: a tour is always created pending).
 * The global pipe drops unknown fields silently; this one is refused with a 422 instead.
 */
export function ProhibitedField(reason: string): PropertyDecorator {
  return ValidateBy({
    name: 'prohibitedField',
    validator: {
      validate: (value: unknown) => value === undefined,
      defaultMessage: (args?: ValidationArguments) =>
        `The ${(args?.property ?? '').replace(/_/g, ' ')} field is prohibited: ${reason}`,
    },
  });
}
