import { hashKey } from '../../engine/placement.ts';
import { BOOK_COUNT, UNDERLYING_NAMES } from './directory.ts';

/**
 * Who is listening, in shared memory: the gateway counts WebSocket subscribers per book channel
 * and per fair-price underlying; actors skip building and sending frames nobody will receive.
 *
 *   Int32 [book slot * 2 + 0]  subscribers of prices:<symbol>
 *   Int32 [book slot * 2 + 1]  subscribers of book:<symbol>
 *   Int32 [2 * BOOK_COUNT + u] subscribers of fair_price:<underlying u>
 *   Int32 [PRIVATE_BASE + (hash(client|mode) % PRIVATE_SLOTS) * 4 + c]
 *                              listeners of a client's private channel c (orders, fills,
 *                              routing, tca: WebSocket and SSE); clients sharing a slot only
 *                              cost each other an event built for nobody
 */
export const InterestKind = { PRICES: 0, BOOK: 1 } as const;

export const PRIVATE_CHANNELS = ['orders', 'fills', 'routing', 'tca', 'funding', 'margin'] as const;
export type PrivateChannel = (typeof PRIVATE_CHANNELS)[number];
const PRIVATE_SLOTS = 1024;
const PRIVATE_BASE = 2 * BOOK_COUNT + UNDERLYING_NAMES.length;

export function createInterest(): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * (PRIVATE_BASE + PRIVATE_SLOTS * PRIVATE_CHANNELS.length));
}

export function privateInterestIndex(channel: PrivateChannel, client: string, mode: string): number {
  return PRIVATE_BASE + (hashKey(`${client}|${mode}`) % PRIVATE_SLOTS) * PRIVATE_CHANNELS.length + PRIVATE_CHANNELS.indexOf(channel);
}

export function bookInterestIndex(slot: number, kind: 0 | 1): number {
  return slot * 2 + kind;
}

export function fairInterestIndex(underlying: number): number {
  return 2 * BOOK_COUNT + underlying;
}
