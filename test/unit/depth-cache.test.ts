/**
 * The depth cache: each (book, feeding edge) has its own slot; a write is read back exactly
 * (levels best first, counts, connected flag, book time); a slot never written reads as
 * undefined; a reader never returns a copy taken while the writer is inside; heartbeats are
 * per edge.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDepthCache, DEPTH_LEVELS, DepthCacheReader, DepthCacheWriter, depthSlot } from '../../actors/edge/depth-cache.ts';
import { book, books } from '../../actors/market/directory.ts';
import { Side } from '../../domain/market.ts';

/** A fill callback writing `n` levels: price base + i, qty 100 + i. */
const levels = (n: number, base: number) => (_side: Side, words: Float64Array, pricesAt: number, qtysAt: number): number => {
  for (let i = 0; i < n; i++) {
    words[pricesAt + i] = base + i;
    words[qtysAt + i] = 100 + i;
  }
  return n;
};

describe('depth cache', () => {
  it('gives every (book, edge) its own slot, and all of them fit the buffer', () => {
    const cache = createDepthCache();
    const seen = new Set<number>();
    for (const entry of books()) {
      entry.edges.forEach((_, i) => {
        const slot = depthSlot(entry, i);
        assert.equal(seen.has(slot), false, `slot ${slot} of ${entry.key} is unique`);
        seen.add(slot);
      });
    }
    // The last slot is writable and readable: the buffer is large enough.
    const last = books()[books().length - 1]!;
    const edge = last.edges.length - 1;
    new DepthCacheWriter(cache, last.edges[edge]!).write(depthSlot(last, edge), true, 7, levels(DEPTH_LEVELS, 1_000));
    assert.equal(new DepthCacheReader(cache).read(depthSlot(last, edge), last.edges[edge]!)?.askCount, DEPTH_LEVELS, 'last slot round trip');
  });

  it('reads back what was written; an unwritten slot is undefined', () => {
    const cache = createDepthCache();
    const entry = book('BTC-USDT', 'spot')!;
    const reader = new DepthCacheReader(cache);
    assert.equal(reader.read(depthSlot(entry, 0), entry.edges[0]!), undefined, 'never written');
    const writer = new DepthCacheWriter(cache, entry.edges[1]!);
    let side = 0;
    writer.write(depthSlot(entry, 1), false, 123_456, (s, words, p, q) => {
      side++;
      return levels(s === Side.BID ? 3 : 2, s === Side.BID ? 500 : 900)(s, words, p, q);
    });
    assert.equal(side, 2, 'both sides filled');
    const got = reader.read(depthSlot(entry, 1), entry.edges[1]!)!;
    assert.equal(got.connected, false, 'connected flag');
    assert.equal(got.ts_ns, 123_456, 'book time');
    assert.deepEqual([...got.bidsPx], [500, 501, 502], 'bid prices');
    assert.deepEqual([...got.bidsQty], [100, 101, 102], 'bid qtys');
    assert.deepEqual([...got.asksPx], [900, 901], 'ask prices');
    assert.deepEqual([...got.asksQty], [100, 101], 'ask qtys');
    assert.equal(reader.read(depthSlot(entry, 0), entry.edges[0]!), undefined, 'the neighbour slot is untouched');
    // A later, shorter write leaves nothing of the longer one visible.
    writer.write(depthSlot(entry, 1), true, 200_000, levels(1, 42));
    const again = reader.read(depthSlot(entry, 1), entry.edges[1]!)!;
    assert.deepEqual([again.bidCount, again.askCount, again.connected], [1, 1, true], 'counts and flag replaced');
  });

  it('never returns a copy taken while the writer is inside', () => {
    const cache = createDepthCache();
    const entry = book('ETH-USDT', 'spot')!;
    const reader = new DepthCacheReader(cache);
    const writer = new DepthCacheWriter(cache, entry.edges[0]!);
    writer.write(depthSlot(entry, 0), true, 1, levels(5, 10));
    let inside: unknown = 'not read';
    writer.write(depthSlot(entry, 0), true, 2, (s, words, p, q) => {
      if (s === Side.ASK) inside = reader.read(depthSlot(entry, 0), entry.edges[0]!);
      return levels(5, 20)(s, words, p, q);
    });
    assert.equal(inside, undefined, 'a read during the write gives up rather than tear');
    assert.equal(reader.read(depthSlot(entry, 0), entry.edges[0]!)!.ts_ns, 2, 'after the write, the new copy');
  });

  it('keeps a heartbeat per edge', () => {
    const cache = createDepthCache();
    const entry = book('BTC-USDT', 'spot')!;
    new DepthCacheWriter(cache, entry.edges[0]!).heartbeat(1_000);
    new DepthCacheWriter(cache, entry.edges[1]!).heartbeat(2_000);
    const reader = new DepthCacheReader(cache);
    assert.equal(reader.heartbeatMs(entry.edges[0]!), 1_000, 'first edge');
    assert.equal(reader.heartbeatMs(entry.edges[1]!), 2_000, 'second edge');
    assert.equal(reader.heartbeatMs('no-such-edge'), 0, 'unknown edge');
  });
});
