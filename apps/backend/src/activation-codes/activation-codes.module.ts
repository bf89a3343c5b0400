import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ActivationCodeBatch } from './activation-code-batch.entity';
import { ActivationCodeBatchesRepository } from './activation-code-batches.repository';
import { ActivationCodeExportRepository } from './activation-code-export.repository';
import { ActivationCodeGenerator } from './activation-code-generator';
import { ActivationCode } from './activation-code.entity';
import { ActivationCodesController } from './activation-codes.controller';
import { ActivationCodesRepository } from './activation-codes.repository';
import { ActivationCodesService } from './activation-codes.service';

/**
 * Activation codes (`activation_codes`, `activation_code_batches`, `activation_code_batch_counters`,
 * `activation_code_events`): generation, listing, export, bulk moves, claim, statistics. It calls
 * no other feature (organizations are checked by the foreign key, read by joins). Exports its
 * service only.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ActivationCode, ActivationCodeBatch])],
  controllers: [ActivationCodesController],
  providers: [
    ActivationCodesRepository,
    ActivationCodeBatchesRepository,
    ActivationCodeExportRepository,
    ActivationCodesService,
    ActivationCodeGenerator,
  ],
  exports: [ActivationCodesService],
})
export class ActivationCodesModule {}
