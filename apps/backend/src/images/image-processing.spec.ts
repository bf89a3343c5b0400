import { QueueFullError, Semaphore, SingleFlight } from './image-processing';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, and every task in the end', async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 5 }, () =>
      semaphore.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
      }),
    );
    for (let i = 0; i < 5; i++) {
      await tick();
      expect(running).toBeLessThanOrEqual(2);
      releases.shift()?.();
    }
    await Promise.all(tasks);
    expect(peak).toBe(2);
  });

  it('lets at most `queueLimit` tasks wait, refuses the next at once, and hands a freed slot to the first waiting', async () => {
    const semaphore = new Semaphore(1, 1);
    const order: string[] = [];
    let running = 0;
    let peak = 0;
    const step = (name: string) => async () => {
      running += 1;
      peak = Math.max(peak, running);
      await tick();
      order.push(name);
      running -= 1;
    };
    let release!: () => void;
    const first = semaphore.run(() => new Promise<void>((resolve) => (release = resolve)));
    const waiting = semaphore.run(step('waiting'));
    await expect(semaphore.run(step('refused'))).rejects.toBeInstanceOf(QueueFullError);
    expect(semaphore.waitingCount).toBe(1);
    // A newcomer arriving as the first task ends waits: the slot went to the task already waiting.
    const newcomer = first.then(() => semaphore.run(step('newcomer')));
    release();
    await Promise.all([waiting, newcomer]);
    expect(order).toEqual(['waiting', 'newcomer']);
    expect(peak).toBe(1);
  });
});

describe('SingleFlight', () => {
  it('shares one run among concurrent callers of a key, and runs again afterwards', async () => {
    const flight = new SingleFlight<number>();
    let runs = 0;
    const task = async () => {
      runs += 1;
      await tick();
      return runs;
    };
    const results = await Promise.all(Array.from({ length: 16 }, () => flight.run('a', task)));
    expect(runs).toBe(1);
    expect(new Set(results)).toEqual(new Set([1]));
    await flight.run('a', task);
    expect(runs).toBe(2);
  });

  it('lets a failed run fail every caller, and tries again next time', async () => {
    const flight = new SingleFlight<string>();
    const failing = flight.run('k', async () => {
      throw new Error('resize failed');
    });
    await expect(failing).rejects.toThrow('resize failed');
    await expect(flight.run('k', async () => 'ok')).resolves.toBe('ok');
  });
});
