import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TransactionalRepository } from '../database/transactions';
import { Image, ImageFormat } from './image.entity';

export interface NewImage {
  id: string;
  format: ImageFormat;
  width: number;
  height: number;
  byteSize: number;
  uploadedByUserId: string;
}

/** The one writer of `images`. */
@Injectable()
export class ImagesRepository extends TransactionalRepository<Image> {
  constructor(@InjectRepository(Image) plain: Repository<Image>) {
    super(plain);
  }

  async insert(image: NewImage): Promise<void> {
    await this.repo.insert(image);
  }

  findById(id: string): Promise<Image | null> {
    return this.repo.findOneBy({ id });
  }

  findByIds(ids: string[]): Promise<Image[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.repo.createQueryBuilder('i').where('i.id = ANY(:ids)', { ids }).getMany();
  }
}
