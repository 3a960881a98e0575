/**
 * A prediction-market scan: lists the trading markets of both prediction venues, pairs each with
 * its equivalent on the other venue (the same question, or the same one asked the other way
 * round), reads each pair's consolidated quote, and prints the pairs whose prices differ.
 *
 *   SEQ_API_KEY=... npx tsx examples/prediction-scan.ts [--limit 100] [--min-diff 0.01]
 *
 * `--limit` is the markets read per venue (1-500), `--min-diff` the smallest difference of the two
 * venues' mids (a probability) worth printing. Prices are raw: fees are not taken off.
 */
import { parseArgs } from 'node:util';
import { ok, type components } from '@sequence/client';
import { scriptClient } from '@sequence/client/script';
import { table } from '@sequence/client/table';

type Market = components['schemas']['Market'];
type Quote = components['schemas']['QuoteResponse'];

// The client from SEQ_API_KEY and SEQ_BASE_URL; any failure ends the example with its message.
const { api } = scriptClient({ hint: 'export an API key first (examples/README.md says how to get one)' });

const { values: args } = parseArgs({
  options: {
    limit: { type: 'string', default: '100' },
    'min-diff': { type: 'string', default: '0.01' },
  },
});
const limit = Number(args.limit);
if (!(Number.isInteger(limit) && limit >= 1 && limit <= 500)) throw new Error('--limit must be a whole number in [1, 500]');
const minDiff = Number(args['min-diff']);
if (!(minDiff >= 0)) throw new Error('--min-diff must be a probability difference >= 0, e.g. 0.01');

// 1. The markets of each venue that name an equivalent on the other one. A pair is found from
//    either side; its key is the two YES symbols, so it is read once.
const pairs = new Map<string, Market>();
let listed = 0;
for (const venue of ['kalshi', 'polymarket'] as const) {
  const page = ok(await api.GET('/v1/markets', { params: { query: { venue, limit } } }));
  listed += page.markets.length;
  for (const market of page.markets) {
    for (const eq of market.equivalents) {
      const key = [market.symbol, eq.symbol].sort().join(' ');
      if (!pairs.has(key)) pairs.set(key, market);
    }
  }
}
console.log(`${listed} markets listed on kalshi and polymarket, ${pairs.size} with an equivalent on the other venue`);

// 2. One consolidated quote per pair: `venues` holds each venue's touch for the same outcome (the
//    other venue's NO leg where its question is inverted).
const mid = (q: Quote['venues'][string] | undefined) => (q !== undefined && q.bid_size > 0 && q.ask_size > 0 ? (q.bid + q.ask) / 2 : undefined);
const rows: { market: Market; quote: Quote; diff: number }[] = [];
for (const market of pairs.values()) {
  const answer = await api.GET('/v1/quotes/{symbol}', {
    params: { path: { symbol: market.symbol }, query: { cross_venue_equivalents: true, nowait: true, depth: 1 } },
  });
  // A leg whose book is empty (not trading yet, or its side of the book is bare) has no quote.
  if (answer.response.status === 404) continue;
  const quote = ok(answer);
  const kalshi = mid(quote.venues['kalshi']);
  const polymarket = mid(quote.venues['polymarket']);
  if (kalshi === undefined || polymarket === undefined) continue;
  // Rounded to the 0.0005 a mid of 0.001 ticks can land on, so 0.455 - 0.445 counts as 0.01.
  const diff = Math.round(Math.abs(kalshi - polymarket) * 2_000) / 2_000;
  if (diff >= minDiff) rows.push({ market, quote, diff });
}

// 3. The pairs that differ, widest first. `crossed`: one venue bids at or above the other's
//    offer, before fees.
rows.sort((a, b) => b.diff - a.diff);
if (rows.length === 0) {
  console.log(`none of the quoted pairs differ by ${minDiff} or more`);
} else {
  const touch = (q: Quote['venues'][string] | undefined) => (q === undefined ? '-' : `${q.bid.toFixed(3)} / ${q.ask.toFixed(3)}`);
  process.stdout.write(
    table(
      ['YES of', 'on', 'kalshi bid / ask', 'polymarket bid / ask', 'mid diff', 'crossed'],
      rows.map(({ market, quote, diff }) => [
        market.question.length > 60 ? `${market.question.slice(0, 59)}…` : market.question,
        market.venue,
        touch(quote.venues['kalshi']),
        touch(quote.venues['polymarket']),
        diff.toFixed(3),
        quote.nbbo.crossed,
      ]),
    ),
  );
  console.log(`${rows.length} pair(s) differ by ${minDiff} or more`);
}
