import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Page } from '@rt/contracts';
import { Repository } from 'typeorm';
import { findByIdForUpdate, touchedAny, updateById } from '../database/row-statements';
import { TransactionalRepository } from '../database/transactions';
import { Tour, TourStatus } from './tour.entity';

export interface TourFields {
  name: string;
  color: string;
  status: TourStatus;
  partnerOrganizationId: string;
  regionOrganizationId: string | null;
}

export interface TourFilter {
  /** An ILIKE pattern (`%…%`), or null. */
  namePattern: string | null;
  statuses: TourStatus[] | null;
  partnerOrganizationId: string | null;
}

/** The one writer of `tours`; other features go through ToursService. */
@Injectable()
export class ToursRepository extends TransactionalRepository<Tour> {
  constructor(@InjectRepository(Tour) plain: Repository<Tour>) {
    super(plain);
  }

  /** One page, newest first then id (tours_created_idx), and the filtered count. */
  findPage(filter: TourFilter, page: Page): Promise<[Tour[], number]> {
    const query = this.repo.createQueryBuilder('t');
    if (filter.namePattern !== null) query.andWhere('t.name ILIKE :pattern', { pattern: filter.namePattern });
    if (filter.statuses !== null) query.andWhere('t.status IN (:...statuses)', { statuses: filter.statuses });
    if (filter.partnerOrganizationId !== null) {
      query.andWhere('t.partner_organization_id = :partner', { partner: filter.partnerOrganizationId });
    }
    return query
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .skip(page.offset)
      .take(page.limit)
      .getManyAndCount();
  }

  findById(id: string): Promise<Tour | null> {
    return this.repo.findOneBy({ id });
  }

  /**
   * The tour, its row locked until the transaction ends: step changes of one tour (positions)
   * run one after the other. Inside `Transactions.run` only.
   */
  findByIdForUpdate(id: string): Promise<Tour | null> {
    return findByIdForUpdate(this.repo, 't', id);
  }

  create(fields: TourFields): Promise<Tour> {
    return this.repo.save(this.repo.create(fields));
  }

  /** Applies the changes; false when the tour does not exist. */
  update(id: string, changes: Partial<TourFields>): Promise<boolean> {
    return updateById(this.repo, id, changes);
  }

  /** Deletes the tour; its steps and their plans go with it (ON DELETE CASCADE), activities stay. */
  async delete(id: string): Promise<boolean> {
    return touchedAny(await this.repo.delete({ id }));
  }

  /** Whether any tour exists (the demo seed). */
  exists(): Promise<boolean> {
    return this.repo.exists();
  }
}
