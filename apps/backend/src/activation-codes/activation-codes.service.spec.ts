import { AppError } from '@rt/errors';
import type { Clock } from '../common/clock';
import type { Transactions } from '../database/transactions';
import type { ActivationCodeBatchesRepository, NewBatch } from './activation-code-batches.repository';
import { UnknownOrganizationError } from './activation-code-batches.repository';
import type { ActivationCodeExportRepository } from './activation-code-export.repository';
import type { ActivationCodeGenerator } from './activation-code-generator';
import type { BatchView, CodeView, StatusCounts } from './activation-code.rows';
import type { BulkAction } from './activation-code-status';
import type { ActivationCodesRepository } from './activation-codes.repository';
import { ActivationCodesService } from './activation-codes.service';
import { UpdateActivationCodeStatusDto } from './dto/update-activation-code-status.dto';

const NOW = new Date('2026-11-24T12:00:00Z');
const AT = new Date('2026-10-01T00:00:00Z');
const ORGANIZATION = '00000000-0000-4000-8000-0000000000a1';
const BATCH = '00000000-0000-4000-8000-0000000000b1';
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const code = (id: string, fields: Partial<CodeView> = {}): CodeView => ({
  id,
  fullCode: 'ABCD-EFGH-JKLM',
  organizationId: ORGANIZATION,
  batchId: BATCH,
  batchNumber: 1,
  claimedByUserId: null,
  createdAt: AT,
  purchasedAt: null,
  usedAt: null,
  cancelledAt: null,
  reimbursedAt: null,
  expiresAt: null,
  tripStartsOn: null,
  tripEndsOn: null,
  ...fields,
});

const zeroCounts = (): StatusCounts => ({
  total: 0,
  reimbursed: 0,
  cancelled: 0,
  active: 0,
  used: 0,
  expired: 0,
  purchased: 0,
  'in stock': 0,
});

/** Hand-written fakes: the codes' repository answers what each test sets, and records its calls. */
class FakeCodes {
  /** How many of each `insertCodes` call the database takes (the rest collided); default all. */
  insertable: number[] = [];
  inserted: { batch: BatchView; fullCodes: string[] }[] = [];
  moved: CodeView[] = [];
  moves: { action: BulkAction; ids: string[]; newExpiration?: Date }[] = [];
  stored = new Map<string, CodeView>();
  claimed: CodeView | null = null;
  tripStarted: CodeView | null = null;

  async insertCodes(batch: BatchView, fullCodes: string[]): Promise<number> {
    this.inserted.push({ batch, fullCodes });
    return Math.min(fullCodes.length, this.insertable.shift() ?? fullCodes.length);
  }

  async move(action: BulkAction, ids: string[], _actor: string, newExpiration?: Date): Promise<CodeView[]> {
    this.moves.push({ action, ids, newExpiration });
    return this.moved;
  }

  async findByIds(ids: string[]): Promise<CodeView[]> {
    return ids.flatMap((id) => (this.stored.has(id) ? [this.stored.get(id)!] : []));
  }

  async findById(id: string): Promise<CodeView | null> {
    return this.stored.get(id) ?? null;
  }

  async findByFullCode(fullCode: string): Promise<CodeView | null> {
    return [...this.stored.values()].find((stored) => stored.fullCode === fullCode) ?? null;
  }

  async claim(): Promise<CodeView | null> {
    return this.claimed;
  }

  async startTrip(): Promise<CodeView | null> {
    return this.tripStarted;
  }
}

class FakeBatches {
  unknownOrganization = false;
  created: NewBatch[] = [];
  batch: BatchView | null = null;
  noteFound = true;
  expirationChanged: number | null = 0;

  async nextBatchNumber(): Promise<number> {
    if (this.unknownOrganization) throw new UnknownOrganizationError();
    return 3;
  }

  async insertBatch(batch: NewBatch): Promise<BatchView> {
    this.created.push(batch);
    return { id: BATCH, ...batch, createdAt: AT };
  }

  async countByStatusOfBatches(ids: string[]): Promise<Map<string, StatusCounts>> {
    return new Map(ids.map((id) => [id, zeroCounts()]));
  }

  async findBatch(): Promise<BatchView | null> {
    return this.batch;
  }

  async setBatchNote(): Promise<boolean> {
    return this.noteFound;
  }

  async setBatchExpiration(): Promise<number | null> {
    return this.expirationChanged;
  }
}

/** Draws `CODE-0001`, `CODE-0002` …, and records how many each call asked for. */
class FakeGenerator {
  asked: number[] = [];
  private drawn = 0;
  generate(count: number): string[] {
    this.asked.push(count);
    return Array.from({ length: count }, () => `CODE-${String(++this.drawn).padStart(4, '0')}`);
  }
}

const statusDto = (fields: Omit<UpdateActivationCodeStatusDto, 'itemErrors'>) =>
  Object.assign(new UpdateActivationCodeStatusDto(), fields);

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ ok: value }),
    (error: unknown) =>
      error instanceof AppError ? { status: error.status, body: error.toBody() } : { thrown: error },
  );

describe('ActivationCodesService', () => {
  let codes: FakeCodes;
  let batches: FakeBatches;
  let generator: FakeGenerator;
  let transactions: { runs: number; run<T>(work: () => Promise<T>): Promise<T> };
  let service: ActivationCodesService;

  beforeEach(() => {
    codes = new FakeCodes();
    batches = new FakeBatches();
    generator = new FakeGenerator();
    transactions = {
      runs: 0,
      run(work) {
        this.runs++;
        return work();
      },
    };
    service = new ActivationCodesService(
      codes as unknown as ActivationCodesRepository,
      batches as unknown as ActivationCodeBatchesRepository,
      {} as ActivationCodeExportRepository,
      generator as unknown as ActivationCodeGenerator,
      transactions as unknown as Transactions,
      { now: () => NOW } as Clock,
    );
  });

  describe('generate', () => {
    const dto = { organisation_id: ORGANIZATION, count: 5 };

    it('numbers a batch and inserts its codes in one transaction', async () => {
      const batch = await service.generate(
        { ...dto, internal_note: 'n', expires_at: '2027-01-01T00:00:00Z' },
        'admin',
      );
      expect(transactions.runs).toBe(1);
      expect(batches.created).toEqual([
        {
          organizationId: ORGANIZATION,
          batchNumber: 3,
          internalNote: 'n',
          expiresAt: new Date('2027-01-01T00:00:00Z'),
          createdByUserId: 'admin',
        },
      ]);
      expect(generator.asked).toEqual([5]);
      expect(batch).toMatchObject({ id: BATCH, batch_number: 3, organisation_id: ORGANIZATION });
    });

    it('draws again as many codes as collided with existing ones, until all are in', async () => {
      codes.insertable = [3, 1, 1];
      await service.generate(dto, 'admin');
      expect(generator.asked).toEqual([5, 2, 1]);
      expect(codes.inserted.map((call) => call.fullCodes)).toEqual([
        ['CODE-0001', 'CODE-0002', 'CODE-0003', 'CODE-0004', 'CODE-0005'],
        ['CODE-0006', 'CODE-0007'],
        ['CODE-0008'],
      ]);
      expect(new Set(codes.inserted.map((call) => call.batch.id))).toEqual(new Set([BATCH]));
    });

    it('gives up after ten rounds of collisions, failing the transaction', async () => {
      codes.insertable = Array.from({ length: 20 }, () => 0);
      await expect(service.generate(dto, 'admin')).rejects.toThrow('activation codes: too many collisions');
      expect(generator.asked).toEqual(Array.from({ length: 10 }, () => 5));
    });

    it('answers an unknown organization with 422 on organisation_id', async () => {
      batches.unknownOrganization = true;
      await expect(refusal(service.generate(dto, 'admin'))).resolves.toEqual({
        status: 422,
        body: expect.objectContaining({
          errors: { organisation_id: ['The selected organisation id is invalid.'] },
        }),
      });
      expect(generator.asked).toEqual([]);
    });
  });

  describe('changeStatus', () => {
    it('requires new_expiration with purchased and refuses it otherwise, before any move', async () => {
      await expect(
        refusal(service.changeStatus(statusDto({ ids: [ID(1)], status: 'purchased' }), 'admin')),
      ).resolves.toEqual({
        status: 422,
        body: expect.objectContaining({
          errors: { new_expiration: ['The new expiration field is required when status is purchased.'] },
        }),
      });
      await expect(
        refusal(
          service.changeStatus(
            statusDto({ ids: [ID(1)], status: 'cancelled', new_expiration: '2027-01-01T00:00:00Z' }),
            'admin',
          ),
        ),
      ).resolves.toMatchObject({
        status: 422,
        body: {
          errors: { new_expiration: ['The new expiration field is only accepted when status is purchased.'] },
        },
      });
      expect(codes.moves).toEqual([]);
    });

    it('moves each id once (any case), and reports every other with its reason', async () => {
      const lettered = '0000000a-0000-4000-8000-00000000000b';
      codes.moved = [code(lettered)];
      codes.stored.set(ID(2), code(ID(2), { cancelledAt: AT }));
      codes.stored.set(ID(3), code(ID(3), { usedAt: AT, purchasedAt: AT }));
      const result = await service.changeStatus(
        statusDto({ ids: [lettered.toUpperCase(), lettered, ID(2), ID(3), ID(4)], status: 'cancelled' }),
        'admin',
      );
      expect(codes.moves).toEqual([
        { action: 'cancel', ids: [lettered, ID(2), ID(3), ID(4)], newExpiration: undefined },
      ]);
      expect(result.updated.map((updated) => updated.id)).toEqual([lettered]);
      expect(result.skipped).toEqual([
        { id: ID(2), reason: 'already_cancelled' },
        { id: ID(3), reason: 'code_used' },
        { id: ID(4), reason: 'not_found' },
      ]);
    });

    it('counts a renewal of a code that already has the new expiration as updated, without a move', async () => {
      const expiration = new Date('2027-06-30T00:00:00Z');
      codes.stored.set(ID(5), code(ID(5), { purchasedAt: AT, expiresAt: expiration }));
      const result = await service.changeStatus(
        statusDto({ ids: [ID(5)], status: 'purchased', new_expiration: expiration.toISOString() }),
        'admin',
      );
      expect(codes.moves).toEqual([{ action: 'renew', ids: [ID(5)], newExpiration: expiration }]);
      expect(result.updated.map((updated) => updated.id)).toEqual([ID(5)]);
      expect(result.skipped).toEqual([]);
    });
  });

  describe('claim', () => {
    it('refuses what cannot be a code, and an unknown code, on full_code', async () => {
      for (const typed of ['nope', 'ABCD-EFGH-JKLM']) {
        await expect(refusal(service.claim(typed, 'user'))).resolves.toEqual({
          status: 422,
          body: expect.objectContaining({ errors: { full_code: ['The selected full code is invalid.'] } }),
        });
      }
    });

    it('answers the claimed code, read in any case without dashes', async () => {
      codes.claimed = code(ID(1), { claimedByUserId: 'user', purchasedAt: NOW });
      await expect(service.claim('abcdefghjklm', 'user')).resolves.toMatchObject({
        id: ID(1),
        status: 'purchased',
      });
    });

    it('says why a code that did not move is refused, with its reason', async () => {
      codes.stored.set(ID(1), code(ID(1), { claimedByUserId: 'other', purchasedAt: AT }));
      await expect(refusal(service.claim('ABCD-EFGH-JKLM', 'user'))).resolves.toEqual({
        status: 422,
        body: expect.objectContaining({
          errors: { full_code: ['This code is already claimed.'] },
          reason: 'already_claimed',
        }),
      });
    });

    it('answers a code the user already holds unchanged, and one that changed meanwhile with a retry', async () => {
      codes.stored.set(ID(1), code(ID(1), { claimedByUserId: 'user', purchasedAt: AT }));
      await expect(service.claim('ABCD-EFGH-JKLM', 'user')).resolves.toMatchObject({ id: ID(1) });
      codes.stored.set(ID(1), code(ID(1)));
      await expect(refusal(service.claim('ABCD-EFGH-JKLM', 'user'))).resolves.toMatchObject({
        status: 422,
        body: { errors: { full_code: ['This code changed meanwhile; try again.'] } },
      });
    });
  });

  describe('startTrip', () => {
    const trip = { tripId: ID(7), tourId: ID(8), startsOn: '2026-12-01', endsOn: '2026-12-03' };

    it('answers null when the code moved, not_claimed for an id that is not a UUID', async () => {
      await expect(service.startTrip('nope', 'user', trip)).resolves.toBe('not_claimed');
      codes.tripStarted = code(ID(1));
      await expect(service.startTrip(ID(1), 'user', trip)).resolves.toBeNull();
    });

    it('tells why a code did not move, and code_used when it was startable (another trip took it)', async () => {
      codes.stored.set(ID(1), code(ID(1), { claimedByUserId: 'user', purchasedAt: AT, cancelledAt: AT }));
      await expect(service.startTrip(ID(1), 'user', trip)).resolves.toBe('code_cancelled');
      await expect(service.startTrip(ID(1), 'someone else', trip)).resolves.toBe('not_claimed');
      codes.stored.set(ID(1), code(ID(1), { claimedByUserId: 'user', purchasedAt: AT }));
      await expect(service.startTrip(ID(1), 'user', trip)).resolves.toBe('code_used');
    });
  });

  describe('updateBatch', () => {
    it('answers 404 when the batch does not exist, whichever field is changed', async () => {
      batches.noteFound = false;
      await expect(
        refusal(service.updateBatch(BATCH, { internal_note: 'x' }, 'admin')),
      ).resolves.toMatchObject({
        status: 404,
      });
      batches.expirationChanged = null;
      await expect(refusal(service.updateBatch(BATCH, { expires_at: null }, 'admin'))).resolves.toMatchObject(
        {
          status: 404,
        },
      );
    });

    it('answers the batch with its counts once changed', async () => {
      batches.batch = {
        id: BATCH,
        organizationId: ORGANIZATION,
        batchNumber: 2,
        internalNote: 'x',
        expiresAt: null,
        createdAt: AT,
      };
      await expect(service.updateBatch(BATCH, { internal_note: 'x' }, 'admin')).resolves.toMatchObject({
        id: BATCH,
        internal_note: 'x',
        code_counts: { total: 0 },
      });
    });
  });
});

describe('UpdateActivationCodeStatusDto.itemErrors', () => {
  it('names each item that is not a UUID under ids.<index>', () => {
    const dto = statusDto({ ids: [ID(1), 'nope', ID(2), 42 as unknown as string], status: 'cancelled' });
    expect(dto.itemErrors()).toEqual({
      'ids.1': ['The ids.1 field must be a valid UUID.'],
      'ids.3': ['The ids.3 field must be a valid UUID.'],
    });
    expect(statusDto({ ids: [ID(1).toUpperCase()], status: 'cancelled' }).itemErrors()).toEqual({});
  });
});
