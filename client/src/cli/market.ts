import { ok } from '../errors.ts';
import { ServiceStream, type StreamFrame } from '../stream.ts';
import { UsageError } from './args.ts';
import { EXIT, isoNs, output, printJson, type Command, type Context, type Schemas } from './context.ts';
import { fromScaled } from './decimal.ts';
import { table } from './table.ts';

type Quote = Schemas['QuoteResponse'];
type Nbbo = Schemas['QuoteNbbo'];

const symbols: Command = {
  path: ['symbols'],
  args: [],
  options: [],
  summary: 'tradeable instruments and the venues listing each',
  async run(ctx) {
    return output(
      ctx,
      ok(await ctx.api.GET('/v1/symbols')),
      (data) =>
        table(
          ['symbol', 'type', 'base', 'quote', 'venues'],
          data.symbols.map((s) => [s.symbol, s.instrument_type, s.base, s.quote, s.venues.map((v) => v.venue).join(',')]),
        ) + `${data.count} symbols\n`,
    );
  },
};

const edges: Command = {
  path: ['edges'],
  args: [],
  options: [],
  summary: 'venue edges: connected, symbols streamed, last seen',
  async run(ctx) {
    const now = Date.now();
    return output(ctx, ok(await ctx.api.GET('/v1/edges')), (data) =>
      table(
        ['edge', 'venue', 'type', 'connected', 'symbols', 'last seen', 'region'],
        data.map((e) => [e.edge_id, e.venue, e.instrument_type, e.connected, e.symbol_count, e.last_seen_ms > 0 ? `${(Math.max(0, now - e.last_seen_ms) / 1000).toFixed(1)} s ago` : 'never', e.region]),
      ),
    );
  },
};

function quoteTable(quote: Quote): string {
  const n = quote.nbbo;
  const head = `${quote.symbol} (${quote.instrument_type})  mid ${n.mid}  spread ${n.spread_bps} bps${n.crossed ? '  CROSSED' : ''}  source ${quote.source}\n`;
  const venues = Object.entries(quote.venues).sort(([a], [b]) => a.localeCompare(b));
  return (
    head +
    table(
      ['venue', 'bid size', 'bid', 'ask', 'ask size', 'age ms'],
      [['NBBO', n.bid_size, n.bid, n.ask, n.ask_size, undefined], ...venues.map(([venue, v]) => [venue, v.bid_size, v.bid, v.ask, v.ask_size, v.age_ms])],
    )
  );
}

async function getQuote(ctx: Context, symbol: string, instrumentType?: Quote['instrument_type']): Promise<Quote> {
  const query = instrumentType === 'spot' || instrumentType === 'perp' || instrumentType === 'prediction' ? { instrument_type: instrumentType } : {};
  return ok(await ctx.api.GET('/v1/quotes/{symbol}', { params: { path: { symbol }, query } }));
}

/** The NBBO fields of a `prices:` frame (decimals, as the REST quote's). */
interface PricesData {
  bid: number;
  ask: number;
  mid: number;
  bid_sz: number;
  ask_sz: number;
  spread_bps: number;
}

function isPrices(data: unknown): data is PricesData {
  const d = data as Partial<PricesData> | null;
  return typeof d === 'object' && d !== null && typeof d.bid === 'number' && typeof d.ask === 'number' && typeof d.mid === 'number';
}

function isQuote(data: unknown): data is Quote {
  const d = data as Partial<Quote> | null;
  return typeof d === 'object' && d !== null && typeof d.symbol === 'string' && typeof d.nbbo === 'object' && typeof d.venues === 'object';
}

/** The `prices:` channel carries the NBBO only, so per-venue rows are read over REST, at most this often. */
const VENUE_REFRESH_MS = 1_000;
/** Redraws are coalesced: a busy book ticks far faster than a terminal can be read. */
const REDRAW_TTY_MS = 100;
const REDRAW_PIPE_MS = 1_000;

/**
 * `quote --watch`: the quote redrawn as `prices:<symbol>` frames arrive, until Ctrl-C. The NBBO
 * row follows every frame; the venue rows are refreshed over REST when frames come (the channel
 * has no per-venue data). With `--json`, each frame is one line (NDJSON) as the stream delivered it.
 */
async function watchQuote(ctx: Context, symbol: string): Promise<number> {
  let quote = await getQuote(ctx, symbol);
  // The channel names a book by its canonical symbol (the quote's), which the typed one need not be.
  const channel = `prices:${quote.symbol}${quote.instrument_type === 'perp' && !quote.symbol.endsWith(':perp') ? ':perp' : ''}`;
  let state = 'connecting';
  let drawTimer: NodeJS.Timeout | undefined;
  let lastRefresh = Date.now();
  let refreshing = false;
  let stopped = false;
  /** whether the NBBO shown came from the stream (newer than any REST read) */
  let streamed = false;

  const draw = () => {
    if (drawTimer !== undefined) clearTimeout(drawTimer);
    drawTimer = undefined;
    const footer = `\nlive: ${channel}  ${state}  ${new Date().toISOString()}  (Ctrl-C to stop)\n`;
    ctx.io.stdout(`${ctx.io.stdoutTty ? '\x1b[H\x1b[2J' : ''}${quoteTable(quote)}${footer}${ctx.io.stdoutTty ? '' : '\n'}`);
  };
  const scheduleDraw = () => {
    if (ctx.json || stopped || drawTimer !== undefined) return;
    drawTimer = setTimeout(draw, ctx.io.stdoutTty ? REDRAW_TTY_MS : REDRAW_PIPE_MS);
  };
  const refreshVenues = () => {
    if (refreshing || Date.now() - lastRefresh < VENUE_REFRESH_MS) return;
    refreshing = true;
    lastRefresh = Date.now();
    getQuote(ctx, symbol, quote.instrument_type)
      .then((fresh) => {
        // The stream's NBBO is newer than the REST read that started before it arrived.
        quote = { ...fresh, nbbo: quote.nbbo };
        scheduleDraw();
      })
      .catch(() => undefined)
      .finally(() => {
        refreshing = false;
      });
  };

  const onFrame = (frame: StreamFrame) => {
    if (ctx.json) {
      printJson(ctx, frame);
      return;
    }
    // The snapshot is a REST read racing the subscription: a prices frame may come first, and is newer.
    if (frame.type === 'snapshot' && isQuote(frame.data)) quote = streamed ? { ...frame.data, nbbo: quote.nbbo } : frame.data;
    else if (isPrices(frame.data)) {
      streamed = true;
      const d = frame.data;
      const nbbo: Nbbo = { ...quote.nbbo, bid: d.bid, ask: d.ask, mid: d.mid, bid_size: d.bid_sz, ask_size: d.ask_sz, spread_bps: d.spread_bps, crossed: d.bid > d.ask };
      quote = { ...quote, nbbo };
      refreshVenues();
    }
    scheduleDraw();
  };
  const stream = new ServiceStream({
    client: ctx.api,
    baseUrl: ctx.baseUrl,
    onFrame,
    onState(s, detail) {
      state = s === 'open' ? detail.reason : `${detail.reason}${detail.retryInMs === undefined ? '' : `, reconnecting in ${(detail.retryInMs / 1000).toFixed(1)} s`}`;
      scheduleDraw();
    },
  });
  stream.subscribe([channel]);
  await stream.connect();
  if (!ctx.json) draw();
  return new Promise((resolve) => {
    const stop = () => {
      stopped = true;
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      if (drawTimer !== undefined) clearTimeout(drawTimer);
      stream.close();
      resolve(EXIT.OK);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

const quote: Command = {
  path: ['quote'],
  args: ['<symbol>'],
  options: ['watch'],
  synopsis: '[--watch]',
  summary: 'NBBO and per-venue quotes; --watch redraws them live until Ctrl-C',
  async run(ctx, [symbol], flags) {
    if (flags.watch === true) return watchQuote(ctx, symbol!);
    return output(ctx, await getQuote(ctx, symbol!), quoteTable);
  },
};

/** `BTC-USDT`, `BTC-USDT:perp` and `btc` all name the underlying BTC (USD, USDT and USDC pairs collapse). */
function underlyingOf(symbol: string): string {
  const base = symbol.split(/[-/:]/)[0] ?? '';
  if (base === '') throw new UsageError(`no underlying in ${JSON.stringify(symbol)}`);
  return base.toUpperCase();
}

const fairPrice: Command = {
  path: ['fair-price'],
  args: ['<symbol>'],
  options: [],
  summary: 'cross-venue fair price of the symbol\'s underlying, with its contributors',
  async run(ctx, [symbol]) {
    const data = ok(await ctx.api.GET('/v1/fair_price/{underlying}', { params: { path: { underlying: underlyingOf(symbol!) } } }));
    return output(
      ctx,
      data,
      (d) =>
        `${d.underlying}  fair ${fromScaled(d.fair_mid_1e9, 9)}  spot ${fromScaled(d.spot_mid_1e9, 9)}  perp ${fromScaled(d.perp_mid_1e9, 9)}` +
        `  basis ${d.basis_bps === null ? '-' : `${d.basis_bps.toFixed(2)} bps`}  confidence ${d.confidence.toFixed(2)}  at ${isoNs(d.cc_ts_ns)}\n` +
        table(['venue', 'type', 'mid', 'weight', 'staleness ms'], d.contributors.map((c) => [c.venue, c.instrument_type, fromScaled(c.mid_1e9, 9), c.weight.toFixed(3), c.staleness_ms])),
    );
  },
};

const fees: Command = {
  path: ['fees'],
  args: ['<symbol>'],
  options: ['venues'],
  synopsis: '[--venues a,b]',
  summary: 'fee schedules of the venues listing the symbol',
  async run(ctx, [symbol], flags) {
    const query = flags.venues === undefined ? { ticker: symbol! } : { ticker: symbol!, venues: flags.venues };
    return output(
      ctx,
      ok(await ctx.api.GET('/v1/fees', { params: { query } })),
      (d) => `${d.ticker}\n${table(['venue', 'model', 'maker bps', 'taker bps', 'taker fee (USD)'], d.fees.map((f) => [f.venue, f.fee_model, f.maker_bps, f.taker_bps, f.formula.taker_fee_usd]))}`,
    );
  },
};

export const marketCommands: readonly Command[] = [symbols, edges, quote, fairPrice, fees];
