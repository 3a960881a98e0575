/**
 * A market-data recorder: for each symbol, its quote snapshot (NBBO, per-venue quotes and book),
 * then every `prices:` and `book:` frame for a number of seconds, one JSON document per line.
 *
 *   SEQ_API_KEY=... npx tsx examples/record-market-data.ts BTC-USDT ETH-USDT [--seconds 10] [--out market-data.jsonl]
 *
 * A line is the stream's frame as delivered: `{type, channel, ts_ns, data}` with `type` `snapshot`
 * (data: the `GET /v1/quotes/{symbol}` answer) or `data` (data: the channel's frame), integers
 * past 2^53 written exactly.
 */
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { ServiceStream, stringifyExact, type Channel } from '@sequence/client';
import { scriptClient } from '@sequence/client/script';
import { table } from '@sequence/client/table';

// The client from SEQ_API_KEY and SEQ_BASE_URL; any failure ends the example with its message.
const { api, baseUrl } = scriptClient({ hint: 'export an API key first (examples/README.md says how to get one)' });

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '10' },
    out: { type: 'string', default: 'market-data.jsonl' },
  },
});
const symbols = positionals.length > 0 ? positionals : ['BTC-USDT'];
const seconds = Number(args.seconds);
if (!(seconds > 0 && seconds <= 3_600)) throw new Error('--seconds must be a number of seconds in (0, 3600]');

const file = createWriteStream(args.out);
/** symbol -> lines written: its snapshot, its `prices:` frames, its `book:` frames */
const lines = new Map(symbols.map((s) => [s, { snapshot: 0, prices: 0, book: 0 }]));
// A symbol's book frames that come before its snapshot are left out, so its lines start with the
// snapshot: each book frame is the whole book, so nothing is lost by it.
const snapshotted = new Set<string>();

const stream = new ServiceStream({
  client: api,
  baseUrl,
  onFrame(frame) {
    const symbol = frame.channel.slice(frame.channel.indexOf(':') + 1);
    if (frame.type === 'snapshot') snapshotted.add(symbol);
    else if (!snapshotted.has(symbol)) return;
    file.write(`${stringifyExact(frame)}\n`);
    const count = lines.get(symbol);
    if (count === undefined) return;
    if (frame.type === 'snapshot') count.snapshot++;
    else if (frame.channel.startsWith('prices:')) count.prices++;
    else count.book++;
  },
  onState(state, { reason, retryInMs }) {
    if (state === 'closed' && retryInMs !== undefined) console.error(`stream ${reason}, reconnecting in ${retryInMs} ms`);
  },
});
// The client reads each `prices:` channel's quote and delivers it as the channel's first frame:
// a quiet market sends nothing until it moves.
stream.subscribe(symbols.flatMap((s): Channel[] => [`prices:${s}`, `book:${s}`]));
await stream.connect();
console.log(`recording ${symbols.join(', ')} for ${seconds} s to ${args.out}`);
await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
stream.close();
await new Promise((resolve) => file.end(resolve));

const counts = [...lines];
process.stdout.write(table(['symbol', 'snapshot', 'prices', 'book'], counts.map(([s, c]) => [s, c.snapshot, c.prices, c.book])));
console.log(`${counts.reduce((sum, [, c]) => sum + c.snapshot + c.prices + c.book, 0)} lines written to ${args.out}`);
const unquoted = symbols.filter((s) => !snapshotted.has(s));
if (unquoted.length > 0) {
  console.error(`no quote for ${unquoted.join(', ')}: nothing recorded for them (GET /v1/symbols lists what trades)`);
  process.exitCode = 1;
}
