import type { DeleteResult, FindOptionsWhere, ObjectLiteral, Repository, UpdateResult } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

// Single-row statements the backend's repositories share, on the repository they pass (their
// `transactional` one).

/**
 * The row `id`, locked until the transaction ends (`SELECT … FOR UPDATE`), so that concurrent
 * changes of one row run one after the other; `alias` names the table in the statement. Inside
 * `Transactions.run` only.
 */
export function findByIdForUpdate<T extends ObjectLiteral>(
  repo: Repository<T>,
  alias: string,
  id: string,
): Promise<T | null> {
  return repo
    .createQueryBuilder(alias)
    .setLock('pessimistic_write')
    .where(`${alias}.id = :id`, { id })
    .getOne();
}

/** Whether an UPDATE or a DELETE touched any row (false: no row matched). */
export function touchedAny(result: UpdateResult | DeleteResult): boolean {
  return (result.affected ?? 0) > 0;
}

/**
 * Applies `changes` to the row `id`; false when there is no such row. Without any change, no
 * UPDATE is sent: it answers whether the row exists.
 */
export async function updateById<T extends ObjectLiteral & { id: string }>(
  repo: Repository<T>,
  id: string,
  changes: QueryDeepPartialEntity<T>,
): Promise<boolean> {
  const where = { id } as FindOptionsWhere<T>;
  if (Object.keys(changes).length === 0) return repo.existsBy(where);
  return touchedAny(await repo.update(where, changes));
}
