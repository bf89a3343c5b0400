import { Global, Module } from '@nestjs/common';
import { Transactions } from './transactions';

/** What every repository and service may use of the database besides TypeORM: transactions. */
@Global()
@Module({ providers: [Transactions], exports: [Transactions] })
export class DatabaseModule {}
