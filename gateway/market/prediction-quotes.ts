import type { Endpoint } from '../../engine/endpoint.ts';
import { edgeKey } from '../../actors/market/directory.ts';
import type { PredictionBook, PredictionEdgeMessage } from '../../actors/prediction-edge/messages.ts';
import type { Level } from '../../domain/market.ts';
import { phaseAt, type EquivalenceRelation, type MarketPhase } from '../../domain/prediction/catalog.ts';
import { consolidateOutcome, type OutcomeSide } from '../../domain/prediction/consolidated.ts';
import { equivalentLegs, type ResolvedLeg } from '../../domain/prediction/symbols.ts';
import { midAndSpread, priceToDecimal, qtyToDecimal } from '../../domain/units.ts';
import { AmbiguousMultiOutcomeError, ApiError, Errors } from '../errors.ts';
import type { PredictionCatalog } from './prediction-catalog.ts';
import type { QuoteResponse } from './quotes.ts';

/** A prediction leg's quote: the spec's quote shape plus which market and leg the symbol named. */
export interface PredictionQuote extends Omit<QuoteResponse, 'instrument_type'> {
  instrument_type: 'prediction';
  market: { venue: string; market_id: string; event_id: string; question: string; leg: 'YES' | 'NO'; token_id: string; status: MarketPhase };
  /** With `cross_venue_equivalents`: the legs of the same outcome on the other venue, consolidated into this quote. */
  equivalents?: { venue: string; market_id: string; leg: 'YES' | 'NO'; token_id: string; relation: EquivalenceRelation; status: MarketPhase }[];
}

const BOOK_TIMEOUT_MS = 2_000;

/**
 * Quotes of prediction legs. A leg trades on one venue, so its NBBO is that venue's touch (or,
 * asked to, the touch of its outcome across both venues): the
 * book is asked of the venue's edge (its own book, no venue round trip), prices are
 * probabilities and sizes contracts. Symbols resolve through the catalog (Quote rules 5-6).
 */
export class PredictionQuotes {
  constructor(
    private readonly catalog: PredictionCatalog,
    private readonly endpoint: Endpoint,
  ) {}

  /**
   * The leg a symbol names; undefined for a CEX pair. Throws the spec's errors: 400
   * AMBIGUOUS_MULTI_OUTCOME (with the candidates), 404 for an unknown name, 400 for a malformed id.
   */
  /** As `resolve`, but a name the catalog does not know is undefined rather than a 404. */
  resolveKnown(symbol: string): ResolvedLeg | undefined {
    const r = this.catalog.resolver.resolve(symbol);
    return r === undefined || (!r.ok && r.code === 'NOT_FOUND') ? undefined : this.resolve(symbol);
  }

  resolve(symbol: string): ResolvedLeg | undefined {
    const r = this.catalog.resolver.resolve(symbol);
    if (r === undefined) return undefined;
    if (r.ok) return r.resolved;
    if (r.code === 'AMBIGUOUS_MULTI_OUTCOME') throw Errors.ambiguousMultiOutcome(symbol, r.outcomes, r.outcome_token_ids);
    if (r.code === 'NOT_FOUND') throw Errors.notFound(r.message);
    throw Errors.validation([{ field: 'symbol', message: r.message }], r.message);
  }

  /**
   * A leg's quote; with `crossVenue`, the outcome's consolidated quote over the leg and its
   * equivalents on the other venue (their same leg, or the other one where the question is
   * inverted): summed levels, the best bid and ask of either, each venue's touch.
   */
  async quote(symbol: string, leg: ResolvedLeg, depth: number, crossVenue = false): Promise<PredictionQuote> {
    const m = leg.market;
    const status = phaseAt(m.timeline, Date.now());
    const equivalents = crossVenue ? equivalentLegs(this.catalog.index, leg) : [];
    const sides = (await Promise.all([leg, ...equivalents].map((l) => this.side(l, depth)))).filter((s) => s !== undefined);
    if (sides.length === 0) {
      throw Errors.notFound(`no quote data for ${symbol}: the market is ${status}, its book is empty${crossVenue ? ', and so are its equivalents\' books' : ''}`);
    }
    const book = sides.length === 1 ? sides[0]! : consolidateOutcome(sides, depth);
    const updated_ms = Math.floor(Math.max(...sides.map((s) => s.ts_ns)) / 1e6);
    const now = Date.now();
    const venues: PredictionQuote['venues'] = {};
    for (const s of sides) venues[s.venue] = { ...touchOf(s.bids, s.asks), age_ms: Math.max(0, now - Math.floor(s.ts_ns / 1e6)) };
    const bid = book.bids[0];
    const ask = book.asks[0];
    const crossed = bid !== undefined && ask !== undefined && bid.price_1e9 >= ask.price_1e9;
    const { mid, spread_bps } = midAndSpread(bid?.price_1e9 ?? 0, ask?.price_1e9 ?? 0, crossed);
    return {
      symbol,
      instrument_type: 'prediction',
      nbbo: { ...touchOf(book.bids, book.asks), mid, spread_bps, crossed },
      venues,
      book: { bids: pairs(book.bids), asks: pairs(book.asks) },
      source: 'edge_nbbo',
      updated_ms,
      market: { venue: leg.venue, market_id: m.market_id, event_id: m.event_id, question: m.question, leg: leg.leg, token_id: leg.token_id, status },
      ...(crossVenue
        ? { equivalents: equivalents.map((e) => ({ venue: e.venue, market_id: e.market.market_id, leg: e.leg, token_id: e.token_id, relation: e.relation, status: phaseAt(e.market.timeline, now) })) }
        : {}),
    };
  }

  /** A leg's side of its venue's book; undefined when the book is gone or empty (not trading). */
  private async side(leg: ResolvedLeg, depth: number): Promise<(OutcomeSide & { ts_ns: number }) | undefined> {
    const book = await this.endpoint.ask<PredictionBook | null>(
      edgeKey(`venue-edge-${leg.venue}`),
      { t: 'Book', market_id: leg.market.market_id, depth } satisfies PredictionEdgeMessage,
      BOOK_TIMEOUT_MS,
    );
    const side = book === null ? undefined : leg.leg === 'YES' ? book.yes : book.no;
    if (book === null || side === undefined || (side.bids.length === 0 && side.asks.length === 0)) return undefined;
    return { venue: leg.venue, bids: side.bids, asks: side.asks, ts_ns: book.ts_ns };
  }

  /** The quote of a symbol when it is a prediction leg; undefined for a CEX pair. */
  async quoteSymbol(symbol: string, depth: number, crossVenue = false): Promise<PredictionQuote | undefined> {
    const leg = this.resolve(symbol);
    return leg === undefined ? undefined : this.quote(symbol, leg, depth, crossVenue);
  }
}

function touchOf(bids: readonly Level[], asks: readonly Level[]): { bid: number; ask: number; bid_size: number; ask_size: number } {
  return { bid: priceToDecimal(bids[0]?.price_1e9 ?? 0), ask: priceToDecimal(asks[0]?.price_1e9 ?? 0), bid_size: qtyToDecimal(bids[0]?.qty_1e8 ?? 0), ask_size: qtyToDecimal(asks[0]?.qty_1e8 ?? 0) };
}

function pairs(levels: readonly Level[]): [number, number][] {
  return levels.map((l) => [priceToDecimal(l.price_1e9), qtyToDecimal(l.qty_1e8)]);
}

/** A batch entry for a failed symbol, carrying the candidates of an ambiguous one. */
export function batchFailure(symbol: string, err: unknown): Record<string, unknown> {
  if (err instanceof AmbiguousMultiOutcomeError) return { symbol, error: err.message, code: err.code, outcomes: err.outcomes, outcome_token_ids: err.outcome_token_ids };
  if (err instanceof ApiError) return { symbol, error: err.message, code: err.code };
  return { symbol, error: (err as Error).message, code: 'UNAVAILABLE' };
}
