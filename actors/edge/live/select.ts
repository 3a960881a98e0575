import type { Actor } from '../../../engine/actor.ts';
import type { VenueId } from '../../../domain/market.ts';
import type { EdgeMessage } from '../messages.ts';
import type { SimEdgeSpec } from '../sim/catalog.ts';
import { LiveEdgeActor } from './actor.ts';
import { BinanceSpot } from './binance/adapter.ts';
import { BitstampSpot } from './bitstamp/adapter.ts';
import { BybitSpot } from './bybit/adapter.ts';
import { CoinbaseSpot } from './coinbase/adapter.ts';
import { HyperliquidPerp } from './hyperliquid/adapter.ts';
import { KrakenSpot } from './kraken/adapter.ts';
import { KucoinSpot } from './kucoin/adapter.ts';
import { OkxSpot } from './okx/adapter.ts';
import type { VenueEndpoints } from './endpoints.ts';
import type { LiveVenue } from './venue.ts';

/** The live adapter of an edge, or undefined when none is built for it (its venue's other instrument type). */
function adapterFor(spec: SimEdgeSpec, endpoints: VenueEndpoints): LiveVenue | undefined {
  const listings = spec.listings.map((l) => ({ symbol: l.symbol, base: l.base, quote: l.quote }));
  const fees = { maker_bps: spec.maker_bps, taker_bps: spec.taker_bps };
  switch (spec.venue) {
    case 'binance':
      return spec.instrument_type === 'spot' ? new BinanceSpot(endpoints, listings, fees) : undefined;
    case 'okx':
      return spec.instrument_type === 'spot' ? new OkxSpot(endpoints, listings, fees) : undefined;
    case 'bybit':
      return spec.instrument_type === 'spot' ? new BybitSpot(endpoints, listings, fees) : undefined;
    case 'kraken':
      return spec.instrument_type === 'spot' ? new KrakenSpot(endpoints, listings, fees) : undefined;
    case 'kucoin':
      return spec.instrument_type === 'spot' ? new KucoinSpot(endpoints, listings, fees) : undefined;
    case 'coinbase':
      return spec.instrument_type === 'spot' ? new CoinbaseSpot(endpoints, listings) : undefined;
    case 'bitstamp':
      return spec.instrument_type === 'spot' ? new BitstampSpot(endpoints, listings, fees) : undefined;
    case 'hyperliquid':
      return spec.instrument_type === 'perp' ? new HyperliquidPerp(endpoints, listings, fees) : undefined;
    default:
      return undefined;
  }
}

/** The live spot or perp edge of a spec on these endpoints, or undefined when no adapter is built for it. */
export function liveEdgeOf(spec: SimEdgeSpec): (endpoints: VenueEndpoints) => Actor<EdgeMessage> | undefined {
  return (endpoints) => {
    const venue = adapterFor(spec, endpoints);
    return venue === undefined ? undefined : new LiveEdgeActor(spec, venue);
  };
}

/**
 * An edge that becomes live or simulated when it starts: the registry makes actors from their
 * key alone, and which venues are live is a setting (`LIVE_VENUES`) read from the context. One
 * extra call per message.
 */
export function selectedEdge<M>(spec: SimEdgeSpec, simulated: () => Actor<M>, live: (endpoints: VenueEndpoints) => Actor<M> | undefined): Actor<M> {
  let inner: Actor<M> | undefined;
  return {
    onStart(ctx) {
      const { settings } = ctx.environment;
      const venues = String(settings['liveVenues'] ?? '').split(',');
      if (venues.includes(spec.venue)) {
        const endpoints = (JSON.parse(String(settings['liveEndpoints'] ?? '{}')) as Partial<Record<VenueId, VenueEndpoints>>)[spec.venue];
        inner = endpoints === undefined ? undefined : live(endpoints);
        if (inner === undefined) ctx.log.warn({ edge: spec.edge_id }, `no live adapter for this ${spec.instrument_type} edge yet: it stays simulated`);
      }
      inner ??= simulated();
      inner.onStart?.(ctx);
    },
    onMessage(message, ctx, endOfBatch) {
      return inner!.onMessage(message, ctx, endOfBatch);
    },
    onStop(ctx) {
      inner?.onStop?.(ctx);
    },
  };
}
