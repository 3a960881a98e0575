/**
 * The instrument list a live adapter needs before it can size an order (lot, tick, minimums):
 * an order that comes before the list was read reads it at once instead of being refused, and
 * every caller waiting at that moment shares the one read.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StreamedVenue, type TradedInstrument } from '../../actors/edge/live/streamed-venue.ts';
import type { FeedSync } from '../../actors/edge/live/book-feeds.ts';

interface Instrument extends TradedInstrument {
  lot: number;
}

/** A venue whose instrument list answers as `answers` says, one entry per read; never started, so it opens no stream. */
class ListedVenue extends StreamedVenue<FeedSync, Instrument> {
  reads = 0;
  constructor(private readonly answers: (() => Promise<(readonly [string, Instrument])[]>)[]) {
    super([], { url: 'ws://127.0.0.1:9/unused', makeSync: () => ({ synced: false, reset() {} }), resync: async () => false });
  }
  protected venueSymbolOf(symbol: string): string {
    return symbol.replace('-', '');
  }
  protected readInstruments(): Promise<(readonly [string, Instrument])[]> {
    const answer = this.answers[Math.min(this.reads, this.answers.length - 1)]!;
    this.reads++;
    return answer();
  }
  protected watch(): void {}
  protected unwatch(): void {}
  protected onFrame(): void {}
  instrument(venueSymbol: string): Promise<Instrument | undefined> {
    return this.instrumentFor(venueSymbol);
  }
}

const BTCUSD: readonly [string, Instrument] = ['BTCUSD', { trading: true, lot: 1_000 }];
const answered = async () => [BTCUSD];
const refused = async (): Promise<(readonly [string, Instrument])[]> => {
  throw new Error('503 from the venue');
};

describe('a live venue instrument list met by an order', () => {
  it('an order before the list was read reads it, and orders arriving meanwhile share that one read', async () => {
    let release!: () => void;
    const venue = new ListedVenue([() => new Promise((resolve) => (release = () => resolve([BTCUSD])))]);
    const first = venue.instrument('BTCUSD');
    const second = venue.instrument('BTCUSD');
    release();
    assert.deepEqual(await Promise.all([first, second]), [BTCUSD[1], BTCUSD[1]]);
    assert.equal(venue.reads, 1);
    assert.deepEqual(await venue.instrument('BTCUSD'), BTCUSD[1]);
    assert.equal(venue.reads, 1, 'a list once read is not read again per order');
  });

  it('a read the venue refused leaves the symbol unknown, and the next order reads again', async () => {
    const venue = new ListedVenue([refused, answered]);
    assert.equal(await venue.instrument('BTCUSD'), undefined);
    assert.deepEqual(await venue.instrument('BTCUSD'), BTCUSD[1]);
    assert.equal(venue.reads, 2);
  });

  it('a symbol the venue does not list stays unknown once the list is read', async () => {
    const venue = new ListedVenue([answered]);
    assert.equal(await venue.instrument('ETHUSD'), undefined);
    assert.equal(venue.reads, 1);
  });
});
