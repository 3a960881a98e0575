import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { actorKind, fnv1a32, GATEWAY_THREAD, hashKey, placeActor, systemActorKey } from '../../engine/placement.ts';

describe('placement', { timeout: 10_000 }, () => {
  it('fnv1a32 matches the published 32-bit FNV-1a test vectors', () => {
    assert.equal(fnv1a32(''), 0x811c9dc5);
    assert.equal(fnv1a32('a'), 0xe40c292c);
    assert.equal(fnv1a32('foobar'), 0xbf9cf968);
  });

  it('hashKey mixes the FNV-1a hash so low bits depend on every input bit', () => {
    assert.notEqual(hashKey('a'), fnv1a32('a'));
    // Keys that differ only in a character's high bits land on both workers of a pair.
    const threads = new Set(['book:A', 'book:\u0141', 'book:\u0241', 'book:\u0341'].map((k) => placeActor(k, 2)));
    assert.equal(threads.size, 2);
  });

  it('actorKind is the part before the first colon', () => {
    assert.equal(actorKind('book:BTC-USDT'), 'book');
    assert.equal(actorKind('edge:binance:spot'), 'edge');
    assert.equal(actorKind('sys:1'), 'sys');
    assert.equal(actorKind('plain'), 'plain');
    assert.equal(actorKind(':x'), '');
  });

  it('places every key deterministically on a worker in 1..workers, never the gateway', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.integer({ min: 1, max: 64 }), (key, workers) => {
        const thread = placeActor(key, workers);
        assert.ok(Number.isInteger(thread) && thread >= 1 && thread <= workers, `${key} -> ${thread}`);
        assert.notEqual(thread, GATEWAY_THREAD);
        assert.equal(placeActor(key, workers), thread, 'same answer every time');
        assert.equal(thread, 1 + (hashKey(key) % workers), 'derived from the key hash only');
      }),
      { numRuns: 1_000 },
    );
  });

  it('a single worker hosts everything', () => {
    for (const key of ['probe:1', 'book:ETH-USDT', 'sys:1', 'sys:7', '']) assert.equal(placeActor(key, 1), 1);
  });

  it('pins sys:<n> to thread n for every worker n', () => {
    for (let workers = 1; workers <= 16; workers++) {
      for (let n = 1; n <= workers; n++) {
        assert.equal(systemActorKey(n), `sys:${n}`);
        assert.equal(placeActor(systemActorKey(n), workers), n);
      }
    }
  });

  it('hashes sys keys that name no worker like any other key', () => {
    const workers = 4;
    for (const key of ['sys:0', 'sys:5', 'sys:-1', 'sys:1.5', 'sys:', 'sys:x']) {
      assert.equal(placeActor(key, workers), 1 + (hashKey(key) % workers), key);
    }
  });

  it('spreads keys across workers within 10% of a fair share', () => {
    const families: ((i: number) => string)[] = [
      (i) => `probe:${i}`,
      (i) => `book:SYM${i}-USDT`,
      (i) => `router:client-${(i * 7919) % 100_000}`,
      (i) => `edge:${i.toString(36)}`,
    ];
    const keys = 12_000;
    for (const workers of [2, 3, 4, 6, 8]) {
      for (const family of families) {
        const counts = new Array<number>(workers + 1).fill(0);
        for (let i = 0; i < keys; i++) counts[placeActor(family(i), workers)]!++;
        assert.equal(counts[0], 0);
        const fair = keys / workers;
        for (let w = 1; w <= workers; w++) {
          const share = counts[w]! / fair;
          assert.ok(share > 0.9 && share < 1.1, `${family(0)}.. on ${workers} workers: worker ${w} got ${counts[w]} (fair ${fair})`);
        }
      }
    }
  });

  it('spreads random keys too (property over seeds of 2,000 keys)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 24 }), { minLength: 2_000, maxLength: 2_000 }), fc.integer({ min: 2, max: 5 }), (keys, workers) => {
        const counts = new Array<number>(workers + 1).fill(0);
        for (const key of keys) counts[placeActor(key, workers)]!++;
        const fair = keys.length / workers;
        for (let w = 1; w <= workers; w++) assert.ok(counts[w]! > 0.75 * fair, `worker ${w}: ${counts[w]} of ${keys.length}`);
      }),
      { numRuns: 20 },
    );
  });
});
