import { QueryFailedError } from 'typeorm';

/** Whether `error` is PostgreSQL's unique violation (23505) on the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && driverError.constraint === constraint;
}
