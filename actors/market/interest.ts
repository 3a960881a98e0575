import { BOOK_COUNT, UNDERLYING_NAMES } from './directory.ts';

/**
 * Who is listening, in shared memory: the gateway counts WebSocket subscribers per book channel
 * and per fair-price underlying; actors skip building and sending frames nobody will receive.
 *
 *   Int32 [book slot * 2 + 0]  subscribers of prices:<symbol>
 *   Int32 [book slot * 2 + 1]  subscribers of book:<symbol>
 *   Int32 [2 * BOOK_COUNT + u] subscribers of fair_price:<underlying u>
 */
export const InterestKind = { PRICES: 0, BOOK: 1 } as const;

export function createInterest(): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * (2 * BOOK_COUNT + UNDERLYING_NAMES.length));
}

export function bookInterestIndex(slot: number, kind: 0 | 1): number {
  return slot * 2 + kind;
}

export function fairInterestIndex(underlying: number): number {
  return 2 * BOOK_COUNT + underlying;
}
