import { SeqlockWords, type SlotCopier } from '../../engine/seqlock.ts';
import type { PredictionVenue } from '../../domain/prediction/catalog.ts';

/**
 * Each prediction market's live figures in shared memory: the edge writes them every second, the
 * gateway reads them for listing rows without a message (one seqlock slot per market).
 *
 *   slot: [seq | yes_bid_1e9 | yes_ask_1e9 | no_bid_1e9 | no_ask_1e9 | volume_24h_cents | volume_total_cents | as_of_ms]
 *
 * An empty side is -1. Slots are given out by the edge in listing order, modulo the table size;
 * the table holds several times the markets a venue lists at once (listing + history), so a
 * slot is reused long after its market was delisted.
 */
const WORDS = 8;
const VENUE_INDEX: Readonly<Record<PredictionVenue, number>> = { kalshi: 0, polymarket: 1 };

/** Slots per venue for a world of `events` long-dated events (about 6 markets an event, with history). */
export function statsSlotsFor(events: number): number {
  let slots = 4096;
  while (slots < events * 16) slots *= 2;
  return slots;
}

export function createMarketStats(slotsPerVenue: number): SharedArrayBuffer {
  return new SharedArrayBuffer(2 * slotsPerVenue * WORDS * 8);
}

export function slotsPerVenueOf(buffer: SharedArrayBuffer): number {
  return buffer.byteLength / (2 * WORDS * 8);
}

export interface MarketFigures {
  yes_bid_1e9: number;
  yes_ask_1e9: number;
  no_bid_1e9: number;
  no_ask_1e9: number;
  volume_24h_cents: number;
  volume_total_cents: number;
  as_of_ms: number;
}

export class MarketStatsTable implements SlotCopier {
  private readonly lock: SeqlockWords;
  readonly slots: number;
  private readonly copy = new Float64Array(WORDS);

  constructor(buffer: SharedArrayBuffer) {
    this.lock = new SeqlockWords(buffer);
    this.slots = slotsPerVenueOf(buffer);
  }

  private base(venue: PredictionVenue, slot: number): number {
    return (VENUE_INDEX[venue] * this.slots + (slot & (this.slots - 1))) * WORDS;
  }

  /** The edge's side: one writer per venue. */
  write(venue: PredictionVenue, slot: number, f: MarketFigures): void {
    const b = this.base(venue, slot);
    const w = this.lock.words;
    this.lock.beginWrite(b);
    w[b + 1] = f.yes_bid_1e9;
    w[b + 2] = f.yes_ask_1e9;
    w[b + 3] = f.no_bid_1e9;
    w[b + 4] = f.no_ask_1e9;
    w[b + 5] = f.volume_24h_cents;
    w[b + 6] = f.volume_total_cents;
    w[b + 7] = f.as_of_ms;
    this.lock.endWrite(b);
  }

  copySlot(words: Float64Array, base: number): boolean {
    if (words[base + 7] === 0) return false;
    for (let i = 1; i < WORDS; i++) this.copy[i] = words[base + i]!;
    return true;
  }

  /** A consistent read of a market's figures; undefined before the edge first wrote them. */
  read(venue: PredictionVenue, slot: number): MarketFigures | undefined {
    if (!this.lock.read(this.base(venue, slot), this)) return undefined;
    const c = this.copy;
    return { yes_bid_1e9: c[1]!, yes_ask_1e9: c[2]!, no_bid_1e9: c[3]!, no_ask_1e9: c[4]!, volume_24h_cents: c[5]!, volume_total_cents: c[6]!, as_of_ms: c[7]! };
  }
}
