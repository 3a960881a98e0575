import type { Actor, ActorContext } from '../../../engine/actor.ts';
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

/** A node among regions (`NATS_URL`, docs/regions.md): this node's region, the servers, and whether it runs the venue's edge. */
export interface EdgeRegion {
  localRegion: string;
  natsUrls: string[];
}

/** The node's region settings when the venue's edge runs on another node, else undefined (one node, or a local venue). */
export function remoteRegionOf(settings: Readonly<Record<string, string | number | boolean>>, venue: string): EdgeRegion | undefined {
  const region = String(settings['region'] ?? '');
  if (region === '') return undefined;
  const local = String(settings['localVenues'] ?? '').split(',');
  return local.includes(venue) ? undefined : { localRegion: region, natsUrls: String(settings['natsUrls'] ?? '').split(',') };
}

/**
 * An edge that becomes live, remote or simulated when it starts: the registry makes actors from
 * their key alone, and which venues are live (`LIVE_VENUES`) or run on another region's node
 * (`LOCAL_VENUES` with `NATS_URL`) are settings read from the context. One extra call per message.
 */
export function selectedEdge<M>(spec: SimEdgeSpec, simulated: () => Actor<M>, live: (endpoints: VenueEndpoints) => Actor<M> | undefined, remote?: (region: EdgeRegion, log: ActorContext['log']) => Actor<M>): Actor<M> {
  let inner: Actor<M> | undefined;
  return {
    onStart(ctx) {
      const { settings } = ctx.environment;
      const venues = String(settings['liveVenues'] ?? '').split(',');
      const region = remoteRegionOf(settings, spec.venue);
      if (region !== undefined) {
        if (remote !== undefined) inner = remote(region, ctx.log);
        else ctx.log.warn({ edge: spec.edge_id }, `a ${spec.instrument_type} edge is not followed across regions yet: it runs here too`);
      } else if (venues.includes(spec.venue)) {
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
