import type { FairPrice } from './compute.ts';

/** The single fair-price actor: every underlying (at most 256) in one place. */
export const FAIR_ACTOR = 'fair:all';

export type FairMessage =
  | {
      t: 'Contribution';
      symbol: string;
      venue: string;
      instrument_type: 'spot' | 'perp';
      mid_1e9: number;
      top_qty_1e8: number;
      spread_bps: number;
      updated_ns: number;
    }
  | { t: 'Remove'; symbol: string; venue: string; instrument_type: 'spot' | 'perp' }
  | { t: 'Get'; underlying: string }
  | { t: 'List' };

export type FairReply = FairPrice | null;
