import { predictionLeg, type PredictionLeg } from '../../domain/prediction/order-leg.ts';
import { classifySymbol, equivalentLegs } from '../../domain/prediction/symbols.ts';
import { marketFeeComponents } from '../../domain/venues.ts';
import type { OrderRequest } from '../../execution/types.ts';
import { Errors } from '../errors.ts';
import type { PredictionCatalog } from './prediction-catalog.ts';
import type { PredictionQuotes } from './prediction-quotes.ts';

/**
 * The legs a prediction order may trade, resolved from its symbol on the gateway (which holds
 * the catalog) and carried to the router with the request: the leg the symbol names (Quote
 * rules 5-6: a ticker, a slug, a token id, an event URL; a multi-outcome event is 400
 * AMBIGUOUS_MULTI_OUTCOME), then, with `cross_venue_equivalents`, the same outcome on each
 * equivalent market of the other venue (its YES, or its NO where the question is inverted).
 * Undefined for a CEX pair: the order is a spot or perp order.
 */
export function predictionLegsOf(catalog: PredictionCatalog, quotes: PredictionQuotes, request: OrderRequest): PredictionLeg[] | undefined {
  const symbol = request.instrument?.symbol ?? request.symbol;
  const type = request.instrument?.type;
  if (symbol === undefined || type === 'spot' || type === 'perp') {
    if (request.cross_venue_equivalents === true) throw Errors.validation([{ field: 'cross_venue_equivalents', message: 'applies to prediction markets only' }]);
    return undefined;
  }
  const resolved = classifySymbol(symbol).kind === 'cex' ? undefined : quotes.resolve(symbol);
  if (resolved === undefined) {
    if (type === 'prediction') throw Errors.validation([{ field: 'instrument.symbol', message: `${symbol} is not a prediction market` }]);
    if (request.cross_venue_equivalents === true) throw Errors.validation([{ field: 'cross_venue_equivalents', message: 'applies to prediction markets only' }]);
    return undefined;
  }
  const legs = [predictionLeg(resolved.market, resolved.leg, marketFeeComponents(resolved.market))];
  if (request.cross_venue_equivalents === true) {
    for (const eq of equivalentLegs(catalog.index, resolved)) legs.push(predictionLeg(eq.market, eq.leg, marketFeeComponents(eq.market)));
  }
  if (request.venue !== undefined && !legs.some((l) => l.venue === request.venue)) {
    throw Errors.validation([{ field: 'venue', message: `${request.venue} does not list ${symbol}` }]);
  }
  return legs;
}
