import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, ObjectLiteral, Repository } from 'typeorm';

/**
 * One transaction over several repositories, of one feature or several, without query runners
 * or managers in services.
 *
 * `Transactions.run(work)` opens a transaction and keeps its EntityManager in an
 * AsyncLocalStorage while `work` runs. Every repository reaches its table through
 * `transactional(this.repo)`: the transaction's repository when called inside `run`, the plain
 * one otherwise. A service writes
 *
 *   await this.transactions.run(async () => {
 *     if (!(await this.tokens.markUsed(tokenId, userId, now))) return false; // its own table
 *     await this.users.setPasswordHash(userId, passwordHash); // users' table, through UsersService
 *     await this.accessTokens.revokeAllOfUser(userId); // tokens' table, through AccessTokensService
 *     return true;
 *   });
 *
 * and every statement of `work` commits together, or none does when `work` throws (the error is
 * rethrown). Why not an EntityManager argument on each write method: it would have to go through
 * other features' service methods too, and a forgotten argument compiles and silently writes
 * outside the transaction (on the embedded database, whose pool is one connection, it would wait
 * forever). Here the only thing to remember is per repository, once: use `transactional`.
 *
 * Rules:
 * - A `run` inside a `run` joins the outer transaction (no savepoint): the outermost one commits.
 * - After a database error PostgreSQL refuses the rest of the transaction: let the error leave
 *   `run` (catching it to carry on inside the same transaction does not work).
 * - Keep `work` to database statements: mail, HTTP and other slow calls go after `run`, and
 *   nothing started inside it may outlive it (it would still see the finished transaction).
 * - What must persist even when the work fails (throttle counts) is not done inside `run`.
 */
const currentTransaction = new AsyncLocalStorage<EntityManager>();

@Injectable()
export class Transactions {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction (READ COMMITTED), or in the caller's when there is one. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (currentTransaction.getStore()?.connection === this.dataSource) return work();
    return this.dataSource.transaction((manager) => currentTransaction.run(manager, work));
  }
}

/**
 * The repository to query: the current transaction's (inside `Transactions.run`) or `repository`
 * itself. Repositories use it for every statement, e.g. `private get repo()` over the injected one.
 */
export function transactional<T extends ObjectLiteral>(repository: Repository<T>): Repository<T> {
  const manager = currentTransaction.getStore();
  return manager && manager.connection === repository.manager.connection
    ? manager.getRepository(repository.target)
    : repository;
}

/**
 * The base of a repository of one table: `repo` is `transactional(plain)`, the transaction's
 * repository inside `Transactions.run` and the injected one outside. A repository of several
 * tables keeps one such getter per table.
 */
export abstract class TransactionalRepository<T extends ObjectLiteral> {
  protected constructor(protected readonly plain: Repository<T>) {}

  protected get repo(): Repository<T> {
    return transactional(this.plain);
  }
}
