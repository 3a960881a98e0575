import { Type, type Static } from 'typebox';
import { MINUTE_MS } from '../../storage/bars.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import type { RouteSpec } from '../http/route.ts';
import { tapeKey } from '../market/tape-writer.ts';
import { dexPair, isDexSymbol } from '../../domain/chains.ts';
import { POOLS } from '../../actors/dex-chain/pools.ts';
import { PredictionHistory } from '../market/prediction-history.ts';
import { PredictionQuotes } from '../market/prediction-quotes.ts';
import { parseInstantMs } from '../http/instants.ts';

const RANGES_MS: Record<string, number> = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '1d': 86_400_000,
  '1w': 7 * 86_400_000,
  '1m': 30 * 86_400_000,
  max: 365 * 86_400_000,
};
/** Sub-minute fidelity reads raw trades; refuse requests that would return more points than this. */
const MAX_POINTS = 20_000;
const NS_PER_MS = 1_000_000;

const HistoryQuery = Type.Object({
  range: Type.Optional(Type.String({ enum: Object.keys(RANGES_MS), default: '1d' })),
  fidelity_secs: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, default: 60, description: '0 = tick mode' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'tick mode only' })),
  paginate: Type.Optional(
    Type.Boolean({ default: false, description: 'prediction markets only (ignored for CEX symbols): walk the whole range in 7-day windows, at most 200,000 points; without it, the newest window only' }),
  ),
  instrument_type: Type.Optional(Type.String({ enum: ['spot', 'perp', 'prediction'], description: 'default: spot when the symbol trades spot, else a prediction leg' })),
});

const Point = Type.Object({
  ts_ns: Type.Integer(),
  price_1e9: Type.Integer(),
  qty_1e8: Type.Optional(Type.Integer()),
  side: Type.Optional(Type.String({ enum: ['buy', 'sell'] })),
  venue_id: Type.Optional(Type.String()),
});

const TicksQuery = Type.Object({
  symbol: Type.String({ minLength: 1, maxLength: 200 }),
  instrument_type: Type.Optional(Type.String({ enum: ['spot', 'perp'], default: 'spot' })),
  venue: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
});

const TicksRangeQuery = Type.Object({
  symbol: Type.String({ minLength: 1, maxLength: 200 }),
  instrument_type: Type.Optional(Type.String({ enum: ['spot', 'perp'], default: 'spot' })),
  from: Type.String({ description: 'ISO 8601 or integer ns' }),
  to: Type.Optional(Type.String({ description: 'ISO 8601 or integer ns; default now' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1000 })),
});

const Tick = Type.Object({
  ts_ns: Type.Integer(),
  price_1e9: Type.Integer(),
  qty_1e8: Type.Integer(),
  side: Type.String({ enum: ['buy', 'sell'] }),
  venue_id: Type.String(),
  trade_id: Type.String(),
});

export function historyRoutes(ctx: GatewayContext): RouteSpec[] {
  const predictions = new PredictionQuotes(ctx.market.prediction, ctx.topology.endpoint);
  const history = new PredictionHistory(ctx.topology.endpoint);
  const keyOr404 = (symbol: string, type: 'spot' | 'perp') => {
    // A chain-suffixed pair's tape is its pools' swaps (actors/dex-chain/), under its canonical symbol.
    const dex = isDexSymbol(symbol) ? dexPair(symbol)! : undefined;
    if (dex !== undefined) {
      const canonical = `${dex.base}-${dex.quote}-${dex.chain}`;
      if (!POOLS.some((p) => p.symbol === canonical)) throw Errors.notFound(`no pool trades ${symbol}`);
      return { entry: { symbol: canonical }, key: canonical };
    }
    const entry = ctx.market.quotes.resolve(symbol, type);
    if (entry === undefined) throw Errors.notFound(`unknown symbol ${symbol} (${type})`);
    return { entry, key: tapeKey(entry.symbol, type) };
  };
  const tickView = (t: { ts_ms: number; price_1e9: number; qty_1e8: number; side: string; venue_id: string; trade_id: string }) => ({
    ts_ns: t.ts_ms * NS_PER_MS,
    price_1e9: t.price_1e9,
    qty_1e8: t.qty_1e8,
    side: t.side,
    venue_id: t.venue_id,
    trade_id: t.trade_id,
  });
  return [
    {
      method: 'get',
      path: '/v1/price_history/{symbol}',
      operationId: 'getPriceHistory',
      summary: 'Price history: CEX symbols from the trade tape, downsampled to fidelity_secs (0 = ticks); prediction legs from their venue',
      tags: ['market data'],
      auth: 'bearer',
      params: Type.Object({ symbol: Type.String({ minLength: 1, maxLength: 200 }) }),
      query: HistoryQuery,
      responses: {
        200: {
          description: 'Points in ascending ts_ns',
          schema: Type.Object({
            symbol: Type.String(),
            range: Type.String(),
            fidelity_secs: Type.Integer(),
            points: Type.Array(Point),
            truncated: Type.Optional(Type.Boolean({ description: 'prediction legs: older points of the range were left out (one window without paginate, or the 200,000-point cap)' })),
            windows: Type.Optional(Type.Integer({ minimum: 0, description: 'prediction legs: 7-day windows read from the venue' })),
          }),
        },
        400: { description: 'a prediction leg in tick mode or at a fidelity that is no whole number of minutes; a multi-outcome event (AMBIGUOUS_MULTI_OUTCOME)' },
        404: { description: 'Unknown symbol' },
      },
      handler: (req) => {
        const q = req.query as Static<typeof HistoryQuery>;
        const range = q.range ?? '1d';
        const fidelity = q.fidelity_secs ?? 60;
        const symbol = req.params['symbol']!;
        const type = q.instrument_type;
        const cex = type === 'prediction' ? undefined : ctx.market.quotes.resolve(symbol, type === 'perp' ? 'perp' : 'spot');
        if (cex === undefined && type !== 'perp' && type !== 'spot' && !isDexSymbol(symbol)) {
          const leg = predictions.resolve(symbol);
          if (leg !== undefined) {
            if (fidelity === 0 || fidelity % 60 !== 0) {
              throw Errors.validation([{ field: 'fidelity_secs', message: 'prediction venues publish history by the minute: a whole number of minutes (60, 120, ...); tick mode is for CEX symbols' }]);
            }
            return history.history(leg, RANGES_MS[range]!, fidelity * 1000, q.paginate ?? false).then((page) => ({
              status: 200,
              body: { symbol, range, fidelity_secs: fidelity, points: page.points, truncated: page.truncated, windows: page.windows },
            }));
          }
          if (type === 'prediction') throw Errors.notFound(`${symbol} is not a prediction market`);
        }
        const { entry, key } = keyOr404(symbol, type === 'perp' ? 'perp' : 'spot');
        const now = Date.now();
        const from = now - RANGES_MS[range]!;
        let points: Record<string, unknown>[];
        if (fidelity === 0) {
          points = ctx.storage.tape
            .latest(key, q.limit ?? 100)
            .filter((t) => t.ts_ms >= from)
            .map((t) => ({ ts_ns: t.ts_ms * NS_PER_MS, price_1e9: t.price_1e9, qty_1e8: t.qty_1e8, side: t.side, venue_id: t.venue_id }));
        } else {
          const bucketMs = fidelity * 1000;
          if (RANGES_MS[range]! / bucketMs > MAX_POINTS) {
            throw Errors.validation([{ field: 'fidelity_secs', message: `range ${range} at ${fidelity}s is more than ${MAX_POINTS} points; raise fidelity_secs` }]);
          }
          points = [];
          let lastBucket = -1;
          const push = (ts: number, price: number) => {
            const bucket = ts - (ts % bucketMs);
            if (bucket === lastBucket) points[points.length - 1]!['price_1e9'] = price;
            else {
              points.push({ ts_ns: bucket * NS_PER_MS, price_1e9: price });
              lastBucket = bucket;
            }
          };
          if (bucketMs % MINUTE_MS === 0) {
            for (const { minute_ms, bar } of ctx.storage.bars.range(key, from, now + 1)) push(minute_ms, bar.close_1e9);
          } else {
            for (const t of ctx.storage.tape.range(key, from, now + 1)) push(t.ts_ms, t.price_1e9);
          }
        }
        return { status: 200, body: { symbol: entry.symbol, range, fidelity_secs: fidelity, points } };
      },
    },
    {
      method: 'get',
      path: '/v1/data/ticks',
      operationId: 'getRecentTicks',
      summary: 'Most recent trades of a symbol from the tape',
      tags: ['data'],
      auth: 'bearer',
      query: TicksQuery,
      responses: { 200: { description: 'Ticks, ascending', schema: Type.Object({ symbol: Type.String(), ticks: Type.Array(Tick) }) } },
      handler: (req) => {
        const q = req.query as Static<typeof TicksQuery>;
        const { entry, key } = keyOr404(q.symbol, (q.instrument_type ?? 'spot') as 'spot' | 'perp');
        return { status: 200, body: { symbol: entry.symbol, ticks: ctx.storage.tape.latest(key, q.limit ?? 100, q.venue).map(tickView) } };
      },
    },
    {
      method: 'get',
      path: '/v1/data/ticks/range',
      operationId: 'getTicksRange',
      summary: 'Historical trades of a symbol in [from, to)',
      tags: ['data'],
      auth: 'bearer',
      query: TicksRangeQuery,
      responses: {
        200: {
          description: 'Ticks, ascending',
          schema: Type.Object({ symbol: Type.String(), ticks: Type.Array(Tick), has_more: Type.Boolean() }),
        },
      },
      handler: (req) => {
        const q = req.query as Static<typeof TicksRangeQuery>;
        const { entry, key } = keyOr404(q.symbol, (q.instrument_type ?? 'spot') as 'spot' | 'perp');
        const from = parseInstantMs(q.from, 'from');
        const to = q.to === undefined ? Date.now() + 1 : parseInstantMs(q.to, 'to');
        if (to <= from) throw Errors.validation([{ field: 'to', message: 'must be after from' }]);
        const limit = q.limit ?? 1000;
        const ticks = ctx.storage.tape.range(key, from, to, limit + 1);
        return { status: 200, body: { symbol: entry.symbol, ticks: ticks.slice(0, limit).map(tickView), has_more: ticks.length > limit } };
      },
    },
  ];
}
