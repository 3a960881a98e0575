import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TimerQueue } from '../../engine/timers.ts';

/** A queue on a hand-driven clock, and the log of which timers ran. */
function setup(start = 0): { queue: TimerQueue; ran: string[]; advance(to: number): void; errors: unknown[] } {
  let now = start;
  const queue = new TimerQueue(() => now);
  const ran: string[] = [];
  const errors: unknown[] = [];
  return {
    queue,
    ran,
    errors,
    advance(to: number) {
      now = to;
    },
  };
}

const noError = (err: unknown) => assert.fail(`unexpected timer error: ${String(err)}`);

describe('TimerQueue', { timeout: 10_000 }, () => {
  it('runs due timers in deadline order and leaves later ones queued', () => {
    const { queue, ran, advance } = setup(1_000);
    queue.schedule(30, () => ran.push('c'));
    queue.schedule(10, () => ran.push('a'));
    queue.schedule(20, () => ran.push('b'));
    queue.schedule(50, () => ran.push('d'));
    assert.equal(queue.runDue(noError), 0, 'nothing due at the start');
    advance(1_029);
    assert.equal(queue.runDue(noError), 2);
    assert.deepEqual(ran, ['a', 'b']);
    advance(1_030);
    assert.equal(queue.runDue(noError), 1, 'a deadline equal to now is due');
    assert.deepEqual(ran, ['a', 'b', 'c']);
    advance(5_000);
    assert.equal(queue.runDue(noError), 1);
    assert.deepEqual(ran, ['a', 'b', 'c', 'd']);
    assert.equal(queue.size, 0);
    assert.equal(queue.runDue(noError), 0);
  });

  it('breaks deadline ties by insertion order', () => {
    const { queue, ran, advance } = setup();
    for (let i = 0; i < 50; i++) queue.schedule(i % 2 === 0 ? 5 : 7, () => ran.push(String(i)));
    advance(100);
    assert.equal(queue.runDue(noError), 50);
    const evens = [...Array(25).keys()].map((i) => String(2 * i));
    const odds = [...Array(25).keys()].map((i) => String(2 * i + 1));
    assert.deepEqual(ran, [...evens, ...odds]);
  });

  it('matches a stable sort by deadline for any schedule (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200, size: 'max' }), (delays) => {
        const { queue, ran, advance } = setup();
        delays.forEach((d, i) => queue.schedule(d, () => ran.push(String(i))));
        advance(20);
        assert.equal(queue.runDue(noError), delays.length);
        const expected = delays
          .map((d, i) => ({ d, i }))
          .sort((a, b) => a.d - b.d || a.i - b.i)
          .map((e) => String(e.i));
        assert.deepEqual(ran, expected);
      }),
      { numRuns: 200 },
    );
  });

  it('a cancelled timer never runs and is not counted', () => {
    const { queue, ran, advance } = setup();
    queue.schedule(5, () => ran.push('a'));
    const cancelB = queue.schedule(5, () => ran.push('b'));
    const cancelC = queue.schedule(1, () => ran.push('c'));
    queue.schedule(9, () => ran.push('d'));
    cancelB();
    cancelC();
    cancelC(); // idempotent
    advance(10);
    assert.equal(queue.runDue(noError), 2);
    assert.deepEqual(ran, ['a', 'd']);
  });

  it('cancelling after a timer ran is a no-op', () => {
    const { queue, ran, advance } = setup();
    const cancel = queue.schedule(1, () => ran.push('a'));
    advance(1);
    queue.runDue(noError);
    cancel();
    queue.schedule(1, () => ran.push('b'));
    advance(2);
    queue.runDue(noError);
    assert.deepEqual(ran, ['a', 'b']);
  });

  it('nextDelay is Infinity when empty, time to the earliest live deadline otherwise, never negative', () => {
    const { queue, advance } = setup(100);
    assert.equal(queue.nextDelay(), Infinity);
    const cancelEarly = queue.schedule(5, () => {});
    queue.schedule(40, () => {});
    assert.equal(queue.nextDelay(), 5);
    cancelEarly();
    assert.equal(queue.nextDelay(), 40, 'a cancelled head is skipped');
    assert.equal(queue.size, 1, 'and dropped from the heap');
    advance(130);
    assert.equal(queue.nextDelay(), 10);
    advance(500);
    assert.equal(queue.nextDelay(), 0, 'an overdue timer asks for no wait');
    queue.runDue(noError);
    assert.equal(queue.nextDelay(), Infinity);
  });

  it('runDue isolates a throwing callback: the others still run and the error is reported', () => {
    const { queue, ran, advance, errors } = setup();
    queue.schedule(1, () => ran.push('a'));
    queue.schedule(2, () => {
      ran.push('boom');
      throw new Error('timer failed');
    });
    queue.schedule(3, () => ran.push('c'));
    advance(3);
    const count = queue.runDue((err) => errors.push(err));
    assert.equal(count, 3, 'the throwing timer counts as run');
    assert.deepEqual(ran, ['a', 'boom', 'c']);
    assert.equal(errors.length, 1);
    assert.match((errors[0] as Error).message, /timer failed/);
    assert.equal(queue.size, 0);
  });

  it('a timer scheduled from a callback for later waits for its own deadline', () => {
    const { queue, ran, advance } = setup();
    queue.schedule(1, () => {
      ran.push('first');
      queue.schedule(10, () => ran.push('second'));
    });
    advance(1);
    assert.equal(queue.runDue(noError), 1);
    assert.deepEqual(ran, ['first']);
    assert.equal(queue.nextDelay(), 10);
    advance(11);
    assert.equal(queue.runDue(noError), 1);
    assert.deepEqual(ran, ['first', 'second']);
  });

  it('uses performance.now by default', () => {
    const queue = new TimerQueue();
    queue.schedule(60_000, () => {});
    const delay = queue.nextDelay();
    assert.ok(delay > 50_000 && delay <= 60_000, `delay ${delay}`);
    assert.equal(queue.runDue(noError), 0);
  });
});
