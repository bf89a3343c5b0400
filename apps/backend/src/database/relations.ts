import { applyDecorators } from '@nestjs/common';
import { JoinColumn, ManyToOne, ObjectType } from 'typeorm';

/** What PostgreSQL does to this row when the row its foreign key names is deleted. */
export type OnDeleteRule = 'CASCADE' | 'RESTRICT' | 'SET NULL';

/**
 * The many-to-one relation over the foreign key column `column` (declared apart, with
 * UuidColumn or a primary column), and the rule of its foreign key.
 */
export const BelongsTo = <T>(
  target: () => ObjectType<T>,
  column: string,
  onDelete: OnDeleteRule,
): PropertyDecorator => applyDecorators(ManyToOne(target, { onDelete }), JoinColumn({ name: column }));
