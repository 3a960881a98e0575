import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RecentMap, RecentSet } from '../../domain/recent.ts';

describe('recent-keys window (domain/recent.ts)', () => {
  it('behaves as a map bounded to its capacity that forgets the oldest inserted key first (against a reference model)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer()), { maxLength: 200 }), (capacity, ops) => {
        const window = new RecentMap<number, number>(capacity);
        // The model: insertion order kept in an array, a known key updated in place.
        const model: [number, number][] = [];
        for (const [key, value] of ops) {
          window.set(key, value);
          const at = model.findIndex(([k]) => k === key);
          if (at >= 0) model[at]![1] = value;
          else {
            model.push([key, value]);
            if (model.length > capacity) model.shift();
          }
          assert.equal(window.size, model.length);
        }
        assert.deepEqual([...window.keys()], model.map(([k]) => k), 'keys, oldest first');
        for (let key = 0; key <= 20; key++) {
          const entry = model.find(([k]) => k === key);
          assert.equal(window.has(key), entry !== undefined, `has(${key})`);
          assert.equal(window.get(key), entry?.[1], `get(${key})`);
        }
      }),
    );
  });

  it('forgets the keys set before a time, oldest first, and keeps bounding by count after', () => {
    const window = new RecentMap<string, number>(3);
    window.set('a', 1, 10);
    window.set('b', 2, 20);
    window.set('a', 9, 25); // a known key keeps its place and its stamp
    window.set('c', 3, 30);
    window.forgetBefore(21);
    assert.deepEqual([...window.keys()], ['c'], 'a (10) and b (20) were set before 21');
    assert.equal(window.get('a'), undefined);
    window.forgetBefore(21);
    assert.equal(window.size, 1, 'forgetting again changes nothing');
    for (const [k, t] of [['d', 40], ['e', 50], ['f', 60]] as const) window.set(k, 0, t);
    assert.deepEqual([...window.keys()], ['d', 'e', 'f'], 'the count bound still holds after slots were freed');
    window.forgetBefore(1_000);
    assert.equal(window.size, 0);
    assert.deepEqual([...window.keys()], []);
  });

  it('a set of keys: a repeat is known, the oldest leaves first', () => {
    const set = new RecentSet<string>(2);
    set.add('a');
    set.add('b');
    set.add('a');
    assert.deepEqual([...set.keys()], ['a', 'b'], 'a repeat keeps its place');
    set.add('c');
    assert.deepEqual([...set.keys()], ['b', 'c']);
    assert.equal(set.has('a'), false);
    assert.equal(set.size, 2);
  });

  it('refuses a capacity that is not a positive integer', () => {
    assert.throws(() => new RecentMap(0), RangeError);
    assert.throws(() => new RecentSet(1.5), RangeError);
  });
});
