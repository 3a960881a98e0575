/** The lifecycle streams' replay window (gateway/ws/replay-feed.ts): exactly the last 128, each event once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LIFECYCLE_REPLAY, ReplayFeed } from '../../gateway/ws/replay-feed.ts';

describe('ReplayFeed', () => {
  it('replays exactly the last 128 events, oldest first', () => {
    const feed = new ReplayFeed();
    assert.equal(LIFECYCLE_REPLAY, 128);
    for (let i = 0; i < 127; i++) feed.offer(`k${i}`, `f${i}`);
    assert.equal(feed.replay().length, 127, 'fewer than 128: all of them');
    for (let i = 127; i < 300; i++) feed.offer(`k${i}`, `f${i}`);
    assert.deepEqual(feed.replay(), Array.from({ length: 128 }, (_, i) => `f${172 + i}`));
  });

  it('sends an event once, also after it left the replay window', () => {
    const feed = new ReplayFeed(4, 16);
    assert.equal(feed.offer('a', 'A'), true);
    assert.equal(feed.offer('a', 'A again'), false);
    for (const k of ['b', 'c', 'd', 'e']) feed.offer(k, k.toUpperCase());
    assert.deepEqual(feed.replay(), ['B', 'C', 'D', 'E']);
    assert.equal(feed.offer('a', 'A'), false, 'still known after leaving the window');
    assert.deepEqual(feed.replay(), ['B', 'C', 'D', 'E']);
  });
});
