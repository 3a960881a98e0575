/**
 * The fan-out benchmark's client process: opens N WebSockets to /v1/stream, subscribes each to
 * one channel, and records for every data frame the delay from the edge's hand-off stamp
 * (`edge_ts_ns`) to its arrival here. Prints one JSON line with the latency percentiles.
 *
 *   argv: <port> <api key> <channel> <connections> <seconds>
 */
import WebSocket from 'ws';
import { wallClockNs } from '../../domain/units.ts';

const [port, key, channel, connectionsArg, secondsArg] = process.argv.slice(2);
const connections = Number(connectionsArg);
const seconds = Number(secondsArg);
const samples = new Float64Array(5_000_000);
let count = 0;
let frames = 0;
let measuring = false;
const STAMP = Buffer.from('"edge_ts_ns":');

/**
 * Per frame: the arrival time first, then the stamp found in the raw bytes (no UTF-8 decode, no
 * JSON.parse): one client process serves 1,000 sockets, so its own per-frame cost would
 * otherwise dominate what is measured.
 */
function onFrame(data: WebSocket.RawData): void {
  if (!measuring) return;
  const arrived = wallClockNs();
  const bytes = data as Buffer;
  const at = bytes.indexOf(STAMP);
  if (at < 0) return;
  frames++;
  let stamp = 0;
  for (let i = at + STAMP.length; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c < 48 || c > 57) break;
    stamp = stamp * 10 + (c - 48);
  }
  if (stamp > 0 && count < samples.length) samples[count++] = (arrived - stamp) / 1000;
}

const sockets: WebSocket[] = [];
await Promise.all(
  Array.from({ length: connections }, () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/v1/stream`, { headers: { authorization: `Bearer ${key}` }, perMessageDeflate: false, skipUTF8Validation: true });
    sockets.push(ws);
    ws.on('message', onFrame);
    return new Promise<void>((resolve, reject) => {
      ws.once('open', () => {
        ws.send(JSON.stringify({ subscribe: [channel] }));
        resolve();
      });
      ws.once('error', reject);
    });
  }),
);
// Let the subscriptions settle, then measure.
await new Promise((r) => setTimeout(r, 1_000));
measuring = true;
await new Promise((r) => setTimeout(r, seconds * 1_000));
measuring = false;
for (const ws of sockets) ws.terminate();
const sorted = samples.subarray(0, count).sort();
const at = (p: number) => (count === 0 ? null : Math.round(sorted[Math.min(count - 1, Math.ceil((p / 100) * count) - 1)]!));
process.stdout.write(
  JSON.stringify({ connections, frames, samples: count, frames_per_connection_per_s: frames / connections / seconds, p50_us: at(50), p99_us: at(99), p999_us: at(99.9), max_us: at(100) }) + '\n',
);
process.exit(0);
