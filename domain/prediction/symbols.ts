import { parseSymbol } from '../market.ts';
import { isDexSymbol } from '../chains.ts';
import type { EquivalenceRelation, PredictionEvent, PredictionMarket, PredictionVenue } from './catalog.ts';

/**
 * Symbol resolution for prediction markets (spec, Quote rules 5-6): what a client may name a
 * market leg by, and what that name means. Pure: `classifySymbol` reads the text alone,
 * `resolvePrediction` looks it up in a catalog index.
 *
 *   BTC-USDT                        a CEX pair (not ours to resolve)
 *   KXBTC-26DEC31-T100000[:YES|:NO]  a ticker-style market ticker; bare = YES
 *   KXPRESARC-26NOV03               a ticker-style event ticker (ambiguous when multi-outcome)
 *   will-x-happen[:yes|:no]          a token-style market or event slug; default YES
 *   https://polymarket.com/event/<event>[/<market>]   reduced to the slug
 *   https://kalshi.com/markets/<series>/<event>        reduced to the event ticker
 *   <78 digits>, polymarket:<78 digits>                a conditional-token id: its own leg
 *
 * A string of 30 or more digits is taken for a token id (Sandbox rule 5). The catalog writes
 * token ids zero-padded to 78 digits; the venue writes them without leading zeros, and some are
 * shorter (a uint256 below 10^77), so a shorter one is the venue's spelling of the padded id and
 * is read as it. One longer than 78 digits is malformed. A second segment that starts with a date (`26DEC31`, or a month `26DEC` as Kalshi names monthly events) tells a ticker
 * from a CEX pair, whose quote is a currency.
 */
export type Leg = 'YES' | 'NO';

export type SymbolRef =
  | { kind: 'cex'; symbol: string }
  | { kind: 'ticker'; ticker: string; leg: Leg | null }
  | { kind: 'slug'; slug: string; leg: Leg | null }
  | { kind: 'token'; token_id: string }
  | { kind: 'invalid'; reason: string };

export const TOKEN_ID_DIGITS = 78;
const TOKEN_LIKE = /^\d{30,}$/;
const TICKER = /^[A-Z][A-Z0-9]*-\d{2}[A-Z]{3}[A-Z0-9]*(-[A-Z0-9.]+)?$/;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function splitLeg(input: string): { body: string; leg: Leg | null } {
  const colon = input.lastIndexOf(':');
  if (colon > 0 && !input.startsWith('http')) {
    const suffix = input.slice(colon + 1).toUpperCase();
    if (suffix === 'YES' || suffix === 'NO') return { body: input.slice(0, colon), leg: suffix };
  }
  return { body: input, leg: null };
}

function fromUrl(input: string): SymbolRef {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { kind: 'invalid', reason: 'not a valid URL' };
  }
  const parts = url.pathname.split('/').filter((p) => p !== '');
  if (url.hostname.endsWith('polymarket.com') && parts[0] === 'event' && parts.length >= 2) {
    const slug = decodeURIComponent(parts[parts.length >= 3 ? 2 : 1]!);
    return SLUG.test(slug) ? { kind: 'slug', slug, leg: null } : { kind: 'invalid', reason: 'the URL names no event slug' };
  }
  if (url.hostname.endsWith('kalshi.com') && parts[0] === 'markets' && parts.length >= 3) {
    const ticker = decodeURIComponent(parts[parts.length - 1]!).toUpperCase();
    return TICKER.test(ticker) ? { kind: 'ticker', ticker, leg: null } : { kind: 'invalid', reason: 'the URL names no event ticker' };
  }
  return { kind: 'invalid', reason: 'not an event URL of a prediction venue' };
}

export function classifySymbol(input: string): SymbolRef {
  const text = input.trim();
  if (/^https?:\/\//i.test(text)) return fromUrl(text);
  const { body, leg } = splitLeg(text);
  const token = body.startsWith('polymarket:') ? body.slice('polymarket:'.length) : body;
  if (TOKEN_LIKE.test(token)) {
    if (leg !== null) return { kind: 'invalid', reason: 'a token id is its own leg: no :YES/:NO suffix' };
    return token.length <= TOKEN_ID_DIGITS ? { kind: 'token', token_id: token.padStart(TOKEN_ID_DIGITS, '0') } : { kind: 'invalid', reason: `a token id has at most ${TOKEN_ID_DIGITS} digits, this one ${token.length}` };
  }
  if (token !== body) return { kind: 'invalid', reason: 'polymarket: must be followed by a token id' };
  if (TICKER.test(body)) return { kind: 'ticker', ticker: body, leg };
  if (leg === null && (parseSymbol(body) !== undefined || isDexSymbol(body))) return { kind: 'cex', symbol: body };
  if (SLUG.test(body)) return { kind: 'slug', slug: body, leg };
  return { kind: 'invalid', reason: 'not a pair, ticker, slug, token id or event URL' };
}

/** What a resolver needs from the catalog: lookups by every id a client may use. */
export interface PredictionIndex {
  /** A market by its id on the venue (market ticker or market slug). */
  market(venue: PredictionVenue, market_id: string): PredictionMarket | undefined;
  /** An event by its slug or event ticker. */
  event(venue: PredictionVenue, slug: string): PredictionEvent | undefined;
  /** The market a token-style token id belongs to. */
  token(token_id: string): PredictionMarket | undefined;
}

export interface ResolvedLeg {
  venue: PredictionVenue;
  market: PredictionMarket;
  leg: Leg;
  /** The leg's token id (`<ticker>:YES|NO` on the ticker-style venue): the canonical symbol. */
  token_id: string;
}

export type Resolution =
  | { ok: true; resolved: ResolvedLeg }
  | { ok: false; code: 'AMBIGUOUS_MULTI_OUTCOME'; message: string; outcomes: string[]; outcome_token_ids: string[] }
  | { ok: false; code: 'NOT_FOUND' | 'VALIDATION_ERROR'; message: string };

function legOf(market: PredictionMarket, leg: Leg): ResolvedLeg {
  return { venue: market.venue, market, leg, token_id: leg === 'YES' ? market.yes_token_id : market.no_token_id };
}

/**
 * The same outcome on each equivalent market the index holds: the same leg, or the other one
 * where the question is asked the other way round (YES there is NO here).
 */
export function equivalentLegs(index: PredictionIndex, of: ResolvedLeg): (ResolvedLeg & { relation: EquivalenceRelation })[] {
  const out: (ResolvedLeg & { relation: EquivalenceRelation })[] = [];
  for (const eq of of.market.equivalents) {
    const market = index.market(eq.venue, eq.market_id);
    if (market !== undefined) out.push({ ...legOf(market, eq.relation === 'same' ? of.leg : of.leg === 'YES' ? 'NO' : 'YES'), relation: eq.relation });
  }
  return out;
}

function ofEvent(event: PredictionEvent, leg: Leg | null, name: string): Resolution {
  if (event.multi) {
    return {
      ok: false,
      code: 'AMBIGUOUS_MULTI_OUTCOME',
      message: `${name} is a multi-outcome event: name one of its outcomes (outcome_token_ids lists each outcome's YES leg)`,
      outcomes: event.markets.map((m) => m.raw_outcome_name ?? m.question),
      outcome_token_ids: event.markets.map((m) => m.yes_token_id),
    };
  }
  return { ok: true, resolved: legOf(event.markets[0]!, leg ?? 'YES') };
}

/** Resolves a prediction reference (not `cex`) to one market leg, or says why not. */
export function resolvePrediction(ref: Exclude<SymbolRef, { kind: 'cex' }>, index: PredictionIndex): Resolution {
  switch (ref.kind) {
    case 'invalid':
      return { ok: false, code: 'VALIDATION_ERROR', message: ref.reason };
    case 'token': {
      const market = index.token(ref.token_id);
      if (market === undefined) return { ok: false, code: 'NOT_FOUND', message: `no market has token id ${ref.token_id}` };
      return { ok: true, resolved: legOf(market, market.yes_token_id === ref.token_id ? 'YES' : 'NO') };
    }
    case 'ticker': {
      const market = index.market('kalshi', ref.ticker);
      if (market !== undefined) return { ok: true, resolved: legOf(market, ref.leg ?? 'YES') };
      const event = index.event('kalshi', ref.ticker);
      return event !== undefined ? ofEvent(event, ref.leg, ref.ticker) : { ok: false, code: 'NOT_FOUND', message: `no market or event has ticker ${ref.ticker}` };
    }
    case 'slug': {
      const market = index.market('polymarket', ref.slug);
      const event = index.event('polymarket', ref.slug);
      // An event slug names the event even where its only market shares the slug.
      if (event !== undefined) return ofEvent(event, ref.leg, ref.slug);
      if (market !== undefined) return { ok: true, resolved: legOf(market, ref.leg ?? 'YES') };
      return { ok: false, code: 'NOT_FOUND', message: `no market or event has slug ${ref.slug}` };
    }
  }
}
