/**
 * Another region's book kept exact over a lossy hop (actors/region-link/remote-books.ts): in
 * order it applies; a repeat changes nothing; a gap holds what follows and asks for one snapshot,
 * then applies the held deltas after it; and, for any pattern of drops, repeats and late
 * snapshots, whenever the sync says the book is whole it equals the owner's book at that number.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PublishedBook, RemoteBookSync, type RemoteBookMessage } from '../../actors/region-link/remote-books.ts';

type Book = [Map<number, number>, Map<number, number>];

const delta = (seq: number, levels: number[] = [0, 100 + seq, 1]): RemoteBookMessage => ({ k: 'delta', venue: 'kraken', symbol: 'BTC-USD', seq, ts_ns: seq, levels });
const snapshotOf = (seq: number, book: Book): RemoteBookMessage => ({
  k: 'snapshot', venue: 'kraken', symbol: 'BTC-USD', seq, ts_ns: seq,
  bids: [...book[0]].flat(), asks: [...book[1]].flat(),
});

function applyTo(book: Book, m: RemoteBookMessage): void {
  if (m.k === 'snapshot') {
    book[0].clear();
    book[1].clear();
    for (let i = 0; i < m.bids.length; i += 2) book[0].set(m.bids[i]!, m.bids[i + 1]!);
    for (let i = 0; i < m.asks.length; i += 2) book[1].set(m.asks[i]!, m.asks[i + 1]!);
    return;
  }
  for (let i = 0; i < m.levels.length; i += 3) {
    const side = book[m.levels[i]!]!;
    if (m.levels[i + 2] === 0) side.delete(m.levels[i + 1]!);
    else side.set(m.levels[i + 1]!, m.levels[i + 2]!);
  }
}

const copy = (b: Book): Book => [new Map(b[0]), new Map(b[1])];
const same = (a: Book, b: Book) => JSON.stringify([[...a[0]].sort(), [...a[1]].sort()]) === JSON.stringify([[...b[0]].sort(), [...b[1]].sort()]);

describe('remote books over a lossy hop', () => {
  it('asks for a snapshot first, then applies in order and ignores repeats', () => {
    const sync = new RemoteBookSync();
    assert.deepEqual(sync.onMessage(delta(3)), { apply: [], needSnapshot: true });
    assert.deepEqual(sync.onMessage(delta(4)), { apply: [], needSnapshot: false }, 'asked once');
    const snap = snapshotOf(2, [new Map(), new Map()]);
    assert.deepEqual(sync.onMessage(snap).apply.map((m) => (m.k === 'snapshot' ? 's2' : `d${m.seq}`)), ['s2', 'd3', 'd4']);
    assert.equal(sync.whole, true);
    assert.deepEqual(sync.onMessage(delta(4)).apply, [], 'a repeat');
    assert.deepEqual(sync.onMessage(delta(5)).apply.length, 1);
    assert.deepEqual(sync.onMessage(delta(7)), { apply: [], needSnapshot: true }, 'a gap');
    assert.equal(sync.whole, false, 'nothing is published from a book with a gap');
  });

  it('whenever it says whole, the book is the owner’s at that number, whatever was lost', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ side: fc.integer({ min: 0, max: 1 }), price: fc.integer({ min: 1, max: 8 }), qty: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 120 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 120, maxLength: 120 }),
        (changes, fate) => {
          const owner: Book = [new Map(), new Map()];
          const truth: Book[] = [copy(owner)];
          const receiver: Book = [new Map(), new Map()];
          const sync = new RemoteBookSync();
          const pendingSnapshots: { at: number; seq: number }[] = [];
          const deliver = (m: RemoteBookMessage) => {
            const step = sync.onMessage(m);
            for (const x of step.apply) applyTo(receiver, x);
            if (step.needSnapshot) pendingSnapshots.push({ at: truth.length + (fate[truth.length % fate.length]! % 3), seq: truth.length - 1 });
            if (sync.whole) assert.ok(same(receiver, truth[sync.lastSeq!]!), `whole at ${sync.lastSeq}`);
          };
          changes.forEach((c, i) => {
            const m = delta(i + 1, [c.side, c.price, c.qty]);
            applyTo(owner, m);
            truth.push(copy(owner));
            const f = fate[i]!;
            if (f !== 0) deliver(m); // 0: dropped
            if (f === 9) deliver(m); // 9: repeated
            for (const p of pendingSnapshots.filter((p) => p.at <= truth.length)) {
              pendingSnapshots.splice(pendingSnapshots.indexOf(p), 1);
              deliver(snapshotOf(p.seq, truth[p.seq]!));
            }
          });
          for (const p of pendingSnapshots.splice(0)) deliver(snapshotOf(p.seq, truth[p.seq]!));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('the publisher’s deltas bring a replica to its top levels exactly, whatever the books do', () => {
    // A side: distinct prices with sizes, best first (bids descending, asks ascending).
    const side = (bid: boolean) =>
      fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 12 }).chain((prices) =>
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: prices.length, maxLength: prices.length }).map((sizes) => {
          const order = prices.map((p, i) => [p * 1_000, sizes[i]! * 100] as const).sort((a, b) => (bid ? b[0] - a[0] : a[0] - b[0]));
          return { px: Float64Array.from(order.map((l) => l[0])), qty: Float64Array.from(order.map((l) => l[1])), count: order.length };
        }),
      );
    const LEVELS = 8;
    fc.assert(
      fc.property(fc.array(fc.tuple(side(true), side(false)), { minLength: 1, maxLength: 30 }), (frames) => {
        const publisher = new PublishedBook(LEVELS);
        const sync = new RemoteBookSync();
        const replica: Book = [new Map(), new Map()];
        for (const m of sync.onMessage(publisher.snapshot('kraken', 'BTC-USD')).apply) applyTo(replica, m);
        let lastSeq = 0;
        for (const [bids, asks] of frames) {
          const d = publisher.update(bids, asks, 1);
          const expected: Book = [new Map(), new Map()];
          for (let i = 0; i < Math.min(bids.count, LEVELS); i++) expected[0].set(bids.px[i]!, bids.qty[i]!);
          for (let i = 0; i < Math.min(asks.count, LEVELS); i++) expected[1].set(asks.px[i]!, asks.qty[i]!);
          if (d === undefined) {
            assert.ok(same(replica, expected), 'no delta only when nothing in the top levels changed');
            continue;
          }
          assert.equal(d.seq, ++lastSeq, 'deltas are numbered 1, 2, 3...');
          const step = sync.onMessage({ k: 'delta', venue: 'kraken', symbol: 'BTC-USD', seq: d.seq, ts_ns: 1, levels: d.levels });
          for (const m of step.apply) applyTo(replica, m);
          assert.ok(same(replica, expected), 'the replica is the publisher’s top levels');
          // A snapshot asked for now says the same.
          const again: Book = [new Map(), new Map()];
          applyTo(again, publisher.snapshot('kraken', 'BTC-USD'));
          assert.ok(same(again, expected));
        }
      }),
      { numRuns: 400 },
    );
  });
});
