import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChildJournal } from '../../actors/edge/child-journal.ts';

describe('edge child journal (reconciliation)', () => {
  it('answers what the edge did with a child it executed', () => {
    const j = new ChildJournal<{ filled: number }>();
    j.record('c-1', { filled: 5 });
    assert.deepEqual(j.reconcile('c-1'), { known: true, result: { filled: 5 } }, 'the recorded answer');
    assert.equal(j.refused('c-1'), false, 'an executed child is not refused');
  });

  it('tombstones a child it never saw: unknown now, refused if it arrives later, still unknown after', () => {
    const j = new ChildJournal<{ filled: number }>();
    assert.deepEqual(j.reconcile('c-2'), { known: false }, 'never received');
    assert.equal(j.refused('c-2'), true, 'a late arrival is refused');
    assert.deepEqual(j.reconcile('c-2'), { known: false }, 'asked again: the same answer');
  });

  it('keeps at most its capacity, forgetting the oldest first', () => {
    const j = new ChildJournal<number>(3);
    for (let i = 1; i <= 4; i++) j.record(`c-${i}`, i);
    assert.equal(j.size, 3, 'bounded');
    assert.equal(j.refused('c-1'), false, 'c-1 was forgotten, not tombstoned');
    assert.deepEqual(j.reconcile('c-4'), { known: true, result: 4 }, 'the newest is kept');
  });

  it('forgets answers older than its retention, so a quiet edge does not keep its last 20,000 for hours', () => {
    let now = 0;
    const j = new ChildJournal<number>(20_000, 60_000, () => now);
    j.record('c-old', 1);
    now = 59_000;
    j.record('c-mid', 2);
    now = 61_000;
    j.record('c-new', 3);
    assert.equal(j.size, 2, 'c-old (set at 0) is past 60 s');
    assert.deepEqual(j.reconcile('c-mid'), { known: true, result: 2 }, 'within the retention: still known');
    assert.equal(j.refused('c-old'), false, 'forgotten, not tombstoned');
  });
});
