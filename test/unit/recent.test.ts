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
