/**
 * The soak (`npm run soak`; minutes to hours, not in CI): the real service process under a steady
 * mix for SOAK_MINUTES (default 30), sampled every SOAK_SAMPLE_S (default 10) seconds.
 *
 *   orders     market buys and sells, GTC limits that rest and are cancelled   (SOAK_ORDERS_PER_S, default 40)
 *   quotes     single and multi-symbol quote reads                              (20/s)
 *   WebSocket  40 clients on prices, book, orders and fills: 5 slow readers (paused, cut off at
 *              1 MiB of backlog, then back), 10 that reconnect every 20-40 s, 5 on a key that is
 *              rotated every 30 s (their sessions end with 4401 and reconnect on the new key)
 *   SSE        8 clients on /v1/risk/stream and /v1/tca/stream, reconnecting every 60 s
 *   sandbox    the same client's sandbox key: market orders and resting GTC limits (SOAK_SANDBOX_PER_S,
 *              default 10), and every 2 minutes a reset (ending its working orders) and a
 *              500-position write
 *   operator   the kill switch on for 2 s every 90 s
 *
 * Reported over time: the process's RSS split into anonymous memory (heaps, buffers) and file
 * pages (LMDB's map as it is touched), CPU, orders/s and their p99, quote p99, open WebSockets,
 * and the service's own read-out (`/v1/health/feeds`): V8 heap of every thread, the gateway
 * thread's event-loop delay p99, the fullest ring.
 * It fails when anonymous memory keeps growing past the warm-up (SOAK_WARMUP_MINUTES, default
 * 5; a least-squares slope above max(16 MB, 5 %) an hour) or the order p99 drifts (last third against the first third after warm-up). Results go to
 * bench/results/soak.json and the pictures to docs/img/soak-*.svg. Loopback only; every client is
 * bounded in number and rate.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import WebSocket from 'ws';
import { ROOT, startServiceProcess, type ServiceProcess } from './lib/processes.ts';
import { percentile, writeResult } from './lib/results.ts';
import { lineChart } from './lib/svg-chart.ts';
import { threadCpuMs } from './lib/thread-cpu.ts';

const MINUTES = Number(process.env['SOAK_MINUTES'] ?? 30);
const WARMUP_MINUTES = Number(process.env['SOAK_WARMUP_MINUTES'] ?? Math.min(5, MINUTES / 6));
const SAMPLE_S = Number(process.env['SOAK_SAMPLE_S'] ?? 10);
const ORDERS_PER_S = Number(process.env['SOAK_ORDERS_PER_S'] ?? 40);
const SANDBOX_PER_S = Number(process.env['SOAK_SANDBOX_PER_S'] ?? 10);
/** A sandbox reset and a positions write this often. */
const SANDBOX_RESET_MS = 120_000;
const SANDBOX_POSITIONS = 500;
const OPERATOR_KEY = 'sqk_op_soak_operator_key_0123456789abcdef';
const VENUES = ['binance', 'okx', 'bybit'];
/**
 * Anonymous memory after the warm-up, fitted by least squares, may grow at most this much an
 * hour (the larger of the two) before the soak fails: a steady climb is a leak however small
 * the window makes it look.
 */
const GROWTH_LIMIT_PER_HOUR = { mb: 16, share: 0.05 };
/** The order p99 of the last third may be this many times the first third's (and above the floor) before it fails. */
const P99_DRIFT = { ratio: 2, floor_ms: 10 };

interface Sample {
  t_min: number;
  rss_mb: number;
  anon_mb: number;
  file_mb: number;
  cpu_pct: number;
  orders_per_s: number;
  order_p99_ms: number;
  quote_p99_ms: number;
  /** V8 heap in use, every thread (the service's own read-out). */
  heap_mb: number | null;
  /** The gateway thread's event-loop delay p99 over its last 10 s window. */
  loop_p99_ms: number | null;
  /** The fullest ring of any thread at the sample, percent in use. */
  ring_max_pct: number | null;
  ws_open: number;
  errors: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function memoryOf(pid: number): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, anon: kb('RssAnon') / 1024, file: (kb('RssFile') + kb('RssShmem')) / 1024 };
}

class Soak {
  private stopped = false;
  private readonly base: string;
  private latencies: number[] = [];
  private quoteLatencies: number[] = [];
  private orders = 0;
  errors = 0;
  readonly unexpected = new Map<string, number>();
  private readonly sockets = new Set<WebSocket>();
  private rotatingKey = { id: '', raw: '' };

  constructor(private readonly service: ServiceProcess) {
    this.base = `http://127.0.0.1:${service.port}`;
  }

  private async call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; json: unknown; ms: number }> {
    const started = performance.now();
    const res = await fetch(this.base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    return { status: res.status, json: text === '' ? undefined : (JSON.parse(text) as unknown), ms };
  }

  private note(what: string): void {
    this.errors++;
    this.unexpected.set(what, (this.unexpected.get(what) ?? 0) + 1);
  }

  async setup(): Promise<void> {
    const key = this.service.apiKey;
    for (const venue of VENUES) {
      const body = { api_key: `soak-${venue}-0123456789`, api_secret: `soak-${venue}-secret-0123456789`, ...(venue === 'okx' ? { passphrase: 'p' } : {}) };
      const res = await this.call('POST', `/v1/credentials/${venue}`, key, body);
      if (res.status !== 200) throw new Error(`credentials ${venue}: ${res.status}`);
    }
    const reset = await this.call('POST', '/v1/sandbox/reset', this.service.sandboxKey);
    if (reset.status !== 200) throw new Error(`sandbox reset: ${reset.status}`);
    const created = await this.call('POST', '/v1/api_keys', key, { label: 'rotating' });
    const issued = created.json as { id: string; raw_key: string };
    this.rotatingKey = { id: issued.id, raw: issued.raw_key };
    await sleep(2_000);
  }

  /** A paced loop: `perSecond` calls of `step`, each awaited, never more than `maxInFlight` at once. */
  private paced(perSecond: number, maxInFlight: number, step: (i: number) => Promise<void>): Promise<void> {
    return (async () => {
      let i = 0;
      let inFlight = 0;
      const interval = 1_000 / perSecond;
      let next = performance.now();
      while (!this.stopped) {
        next += interval;
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        if (inFlight >= maxInFlight) continue;
        inFlight++;
        void step(i++)
          .catch((err: unknown) => this.note(`exception: ${String(err).slice(0, 80)}`))
          .finally(() => inFlight--);
      }
    })();
  }

  orderFlow(): Promise<void> {
    const key = this.service.apiKey;
    let resting: string | undefined;
    return this.paced(ORDERS_PER_S, 50, async (i) => {
      const id = `soak-${i}`;
      if (i % 10 === 9) {
        // A GTC bid far below the market rests; the previous one is cancelled.
        const res = await this.call('POST', '/v1/orders', key, { client_order_id: id, symbol: 'BTC-USDT', side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: 1_000 * 1e9, time_in_force: 'gtc' });
        if (res.status !== 201 && res.status !== 503) this.note(`gtc ${res.status}`);
        const previous = resting;
        resting = (res.json as { node_order_id?: string } | undefined)?.node_order_id;
        if (previous !== undefined) {
          const cancel = await this.call('DELETE', `/v1/orders/${previous}`, key);
          if (cancel.status !== 200 && cancel.status !== 409) this.note(`cancel ${cancel.status}`);
        }
        return;
      }
      const res = await this.call('POST', '/v1/orders', key, { client_order_id: id, symbol: 'BTC-USDT', side: i % 2 === 0 ? 'buy' : 'sell', qty_1e8: 100_000, order_type: 'market' });
      // 503: the kill switch is on for a moment every 90 s.
      if (res.status === 201) {
        this.orders++;
        this.latencies.push(res.ms);
      } else if (res.status !== 503) this.note(`order ${res.status}`);
    });
  }

  /** Sandbox orders, the same shapes as live ones; the resting ones are ended by the resets. */
  sandboxFlow(): Promise<void> {
    const key = this.service.sandboxKey;
    return this.paced(SANDBOX_PER_S, 20, async (i) => {
      const body =
        i % 10 === 9
          ? { client_order_id: `sbx-soak-${i}`, symbol: 'BTC-USDT', side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: 1_000 * 1e9, time_in_force: 'gtc' }
          : { client_order_id: `sbx-soak-${i}`, symbol: 'BTC-USDT', side: i % 2 === 0 ? 'buy' : 'sell', qty_1e8: 100_000, order_type: 'market' };
      const res = await this.call('POST', '/v1/orders', key, body);
      if (res.status === 201) {
        this.orders++;
        this.latencies.push(res.ms);
      } else if (res.status !== 503) this.note(`sandbox order ${res.status}`);
    });
  }

  /** Every SANDBOX_RESET_MS: a reset, then SANDBOX_POSITIONS positions written (upserts onto the reset balances). */
  async sandboxResets(): Promise<void> {
    const key = this.service.sandboxKey;
    let round = 0;
    while (!this.stopped) {
      await sleep(SANDBOX_RESET_MS);
      if (this.stopped) return;
      const reset = await this.call('POST', '/v1/sandbox/reset', key).catch(() => undefined);
      if (reset?.status !== 200) this.note(`sandbox reset ${reset?.status}`);
      round++;
      const positions = Array.from({ length: SANDBOX_POSITIONS }, (_, i) => ({ venue: 'binance', kind: 'crypto', symbol: `SK${i}`, qty: round + i / 1e8 }));
      const written = await this.call('POST', '/v1/sandbox/positions', key, { positions }).catch(() => undefined);
      if (written?.status !== 200) this.note(`sandbox positions ${written?.status}`);
    }
  }

  quotes(): Promise<void> {
    const key = this.service.apiKey;
    return this.paced(20, 10, async (i) => {
      const res = i % 4 === 0 ? await this.call('GET', '/v1/quotes?symbols=BTC-USDT,ETH-USDT,SOL-USDT', key) : await this.call('GET', '/v1/quotes/BTC-USDT', key);
      if (res.status === 200) this.quoteLatencies.push(res.ms);
      else this.note(`quote ${res.status}`);
    });
  }

  /** One WebSocket client for as long as the soak runs: it reconnects when closed (after `reopenMs`). */
  private async wsClient(kind: 'steady' | 'slow' | 'reconnecting' | 'rotating'): Promise<void> {
    while (!this.stopped) {
      const token = kind === 'rotating' ? this.rotatingKey.raw : this.service.apiKey;
      const ticket = await this.call('GET', '/v1/ws/ticket', token).catch(() => undefined);
      const value = (ticket?.json as { ticket?: string } | undefined)?.ticket;
      if (value === undefined) {
        await sleep(500);
        continue;
      }
      await new Promise<void>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${this.service.port}/v1/stream?ticket=${value}`, { handshakeTimeout: 5_000 });
        this.sockets.add(ws);
        let timer: NodeJS.Timeout | undefined;
        ws.on('open', () => {
          ws.send(JSON.stringify({ subscribe: ['prices:BTC-USDT', 'book:ETH-USDT', 'orders', 'fills'] }));
          // A slow reader stops reading: the server cuts it off at 1 MiB of backlog.
          if (kind === 'slow') (ws as unknown as { _socket: { pause(): void } })._socket.pause();
          if (kind === 'reconnecting') timer = setTimeout(() => ws.close(1000), 20_000 + Math.random() * 20_000);
        });
        ws.on('error', () => undefined);
        ws.on('close', () => {
          clearTimeout(timer);
          this.sockets.delete(ws);
          resolve();
        });
        const stop = setInterval(() => {
          if (this.stopped) ws.terminate();
        }, 500);
        ws.once('close', () => clearInterval(stop));
      });
      await sleep(kind === 'slow' ? 5_000 : 200);
    }
  }

  websockets(): Promise<void>[] {
    const kinds = [...Array(20).fill('steady'), ...Array(5).fill('slow'), ...Array(10).fill('reconnecting'), ...Array(5).fill('rotating')] as ('steady' | 'slow' | 'reconnecting' | 'rotating')[];
    return kinds.map((k) => this.wsClient(k));
  }

  /** SSE clients reading until the server ends the stream or 60 s pass, then again. */
  sse(): Promise<void>[] {
    return Array.from({ length: 8 }, async (_, i) => {
      const path = i % 2 === 0 ? '/v1/risk/stream' : '/v1/tca/stream';
      while (!this.stopped) {
        await new Promise<void>((resolve) => {
          const req = request({ host: '127.0.0.1', port: this.service.port, path, headers: { authorization: `Bearer ${this.service.apiKey}` } }, (res) => {
            res.on('data', () => undefined);
            res.on('end', resolve);
            res.on('close', resolve);
          });
          req.on('error', () => resolve());
          const timer = setTimeout(() => req.destroy(), 60_000);
          const stop = setInterval(() => {
            if (this.stopped) req.destroy();
          }, 500);
          req.on('close', () => {
            clearTimeout(timer);
            clearInterval(stop);
            resolve();
          });
          req.end();
        });
        await sleep(200);
      }
    });
  }

  async rotations(): Promise<void> {
    while (!this.stopped) {
      await sleep(30_000);
      if (this.stopped) return;
      const res = await this.call('POST', `/v1/api_keys/${this.rotatingKey.id}/rotate`, this.service.apiKey).catch(() => undefined);
      const issued = res?.json as { id?: string; raw_key?: string } | undefined;
      if (res?.status === 201 && issued?.id !== undefined && issued.raw_key !== undefined) this.rotatingKey = { id: issued.id, raw: issued.raw_key };
      else this.note(`rotate ${res?.status}`);
    }
  }

  async killSwitch(): Promise<void> {
    while (!this.stopped) {
      await sleep(90_000);
      if (this.stopped) return;
      await this.call('PUT', '/v1/kill_switch', OPERATOR_KEY, { active: true, reason: 'soak toggle' });
      await sleep(2_000);
      await this.call('PUT', '/v1/kill_switch', OPERATOR_KEY, { active: false });
    }
  }

  /**
   * What the service reports of its own threads (`GET /v1/health/feeds`): V8 heap in use, all
   * threads together; the gateway thread's event-loop delay p99 over its last 10 s; the fullest
   * ring of any thread. Null when the read-out failed (counted as unexpected).
   */
  async threads(): Promise<{ heap_mb: number; loop_p99_ms: number; ring_max_pct: number } | null> {
    try {
      const res = await this.call('GET', '/v1/health/feeds', this.service.apiKey);
      const body = res.json as {
        rings: { heap_used_bytes: number | null; fullest_ring: number | null }[];
        gateway_thread: { heap_used_bytes: number; fullest_ring: number; event_loop_delay: { p99_ms: number } };
      };
      if (res.status !== 200) throw new Error(String(res.status));
      const heap = body.rings.reduce((sum, r) => sum + (r.heap_used_bytes ?? 0), body.gateway_thread.heap_used_bytes);
      const fullest = Math.max(body.gateway_thread.fullest_ring, ...body.rings.map((r) => r.fullest_ring ?? 0));
      return { heap_mb: Number((heap / 2 ** 20).toFixed(1)), loop_p99_ms: body.gateway_thread.event_loop_delay.p99_ms, ring_max_pct: Number((fullest * 100).toFixed(2)) };
    } catch {
      this.note('health/feeds read-out failed');
      return null;
    }
  }

  /** The figures of the window since the last call. */
  window(): { orders: number; p99: number; quoteP99: number } {
    const sorted = this.latencies.sort((a, b) => a - b);
    const quotes = this.quoteLatencies.sort((a, b) => a - b);
    const out = { orders: this.orders, p99: percentile(sorted, 99), quoteP99: percentile(quotes, 99) };
    this.latencies = [];
    this.quoteLatencies = [];
    this.orders = 0;
    return out;
  }

  get openSockets(): number {
    return this.sockets.size;
  }

  stop(): void {
    this.stopped = true;
  }
}

/** Least-squares slope of y over x (per unit of x). */
function slopePerMinute(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

function medianOrNull(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : median(known);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const service = await startServiceProcess({ WORKERS: '2', OPERATOR_KEY, SIM_ACCOUNT_USD: '1000000000', MAX_ORDER_NOTIONAL_USD: '1000000000' });
  const soak = new Soak(service);
  const samples: Sample[] = [];
  const pid = service.child.pid!;
  try {
    await soak.setup();
    const work = [soak.orderFlow(), soak.sandboxFlow(), soak.sandboxResets(), soak.quotes(), ...soak.websockets(), ...soak.sse(), soak.rotations(), soak.killSwitch()];
    const started = Date.now();
    let cpuBefore = [...threadCpuMs(pid).values()].reduce((s, v) => s + v, 0);
    let errorsBefore = 0;
    while (Date.now() - started < MINUTES * 60_000) {
      await sleep(SAMPLE_S * 1_000);
      const memory = memoryOf(pid);
      const cpu = [...threadCpuMs(pid).values()].reduce((s, v) => s + v, 0);
      const w = soak.window();
      const threads = await soak.threads();
      const sample: Sample = {
        t_min: Number(((Date.now() - started) / 60_000).toFixed(2)),
        rss_mb: Math.round(memory.rss),
        anon_mb: Math.round(memory.anon),
        file_mb: Math.round(memory.file),
        cpu_pct: Math.round(((cpu - cpuBefore) / (SAMPLE_S * 1_000)) * 100),
        orders_per_s: Math.round(w.orders / SAMPLE_S),
        order_p99_ms: Number(w.p99.toFixed(1)),
        quote_p99_ms: Number(w.quoteP99.toFixed(1)),
        heap_mb: threads?.heap_mb ?? null,
        loop_p99_ms: threads?.loop_p99_ms ?? null,
        ring_max_pct: threads?.ring_max_pct ?? null,
        ws_open: soak.openSockets,
        errors: soak.errors - errorsBefore,
      };
      cpuBefore = cpu;
      errorsBefore = soak.errors;
      samples.push(sample);
      console.log(JSON.stringify(sample));
    }
    soak.stop();
    await Promise.race([Promise.allSettled(work), sleep(15_000)]);
  } finally {
    soak.stop();
    await service.stop();
  }

  const after = samples.filter((s) => s.t_min >= WARMUP_MINUTES);
  const third = Math.max(1, Math.floor(after.length / 3));
  const first = after.slice(0, third);
  const last = after.slice(-third);
  const anonStart = median(first.map((s) => s.anon_mb));
  const anonEnd = median(last.map((s) => s.anon_mb));
  const growth = anonEnd - anonStart;
  const perHour = slopePerMinute(after.map((s) => [s.t_min, s.anon_mb])) * 60;
  const growthLimit = Math.max(GROWTH_LIMIT_PER_HOUR.mb, anonStart * GROWTH_LIMIT_PER_HOUR.share);
  const p99Start = median(first.map((s) => s.order_p99_ms));
  const p99End = median(last.map((s) => s.order_p99_ms));
  const memoryFlat = perHour <= growthLimit;
  const p99Steady = p99End <= Math.max(P99_DRIFT.floor_ms, p99Start * P99_DRIFT.ratio);

  const img = join(ROOT, 'docs', 'img');
  mkdirSync(img, { recursive: true });
  const mark = { x: WARMUP_MINUTES, label: 'end of warm-up' };
  writeFileSync(join(img, 'soak-memory.svg'), lineChart({
    title: `Service memory over a ${MINUTES}-minute soak`, xLabel: 'minutes', yLabel: 'MB', markX: mark,
    series: [
      { name: 'RSS', color: '#1f77b4', points: samples.map((s) => [s.t_min, s.rss_mb]) },
      { name: 'anonymous (heaps, buffers)', color: '#d62728', points: samples.map((s) => [s.t_min, s.anon_mb]) },
      { name: 'file pages (LMDB map)', color: '#2ca02c', points: samples.map((s) => [s.t_min, s.file_mb]) },
      { name: 'V8 heap in use, all threads', color: '#9467bd', points: samples.flatMap((s) => (s.heap_mb === null ? [] : [[s.t_min, s.heap_mb] as [number, number]])) },
    ],
  }));
  writeFileSync(join(img, 'soak-latency.svg'), lineChart({
    title: `Order and quote p99 over a ${MINUTES}-minute soak (per ${SAMPLE_S} s window)`, xLabel: 'minutes', yLabel: 'ms', markX: mark,
    series: [
      { name: 'POST /v1/orders p99', color: '#d62728', points: samples.map((s) => [s.t_min, s.order_p99_ms]) },
      { name: 'GET /v1/quotes p99', color: '#1f77b4', points: samples.map((s) => [s.t_min, s.quote_p99_ms]) },
      { name: 'gateway event-loop delay p99', color: '#2ca02c', points: samples.flatMap((s) => (s.loop_p99_ms === null ? [] : [[s.t_min, s.loop_p99_ms] as [number, number]])) },
    ],
  }));
  const path = writeResult({
    name: 'soak',
    description: `the service under a steady mix for ${MINUTES} min (orders ${ORDERS_PER_S}/s, quotes 20/s, 40 WebSockets incl. slow, reconnecting and key-rotated ones, 8 SSE, kill-switch toggles, sandbox orders ${SANDBOX_PER_S}/s with a reset and a ${SANDBOX_POSITIONS}-position write every ${SANDBOX_RESET_MS / 60_000} min), sampled every ${SAMPLE_S} s; growth and drift measured after a ${WARMUP_MINUTES}-min warm-up, first third against last third`,
    metrics: {
      minutes: MINUTES,
      samples: samples.length,
      anon_mb_after_warmup: anonStart,
      anon_mb_end: anonEnd,
      anon_growth_mb: growth,
      anon_growth_mb_per_hour: Number(perHour.toFixed(1)),
      anon_growth_limit_mb_per_hour: Math.round(growthLimit),
      rss_mb_end: samples.at(-1)?.rss_mb ?? null,
      file_mb_end: samples.at(-1)?.file_mb ?? null,
      heap_mb_after_warmup: medianOrNull(first.map((s) => s.heap_mb)),
      heap_mb_end: medianOrNull(last.map((s) => s.heap_mb)),
      heap_growth_mb_per_hour: Number((slopePerMinute(after.flatMap((s) => (s.heap_mb === null ? [] : [[s.t_min, s.heap_mb] as [number, number]]))) * 60).toFixed(1)),
      loop_delay_p99_ms_median: medianOrNull(after.map((s) => s.loop_p99_ms)),
      ring_max_pct: Math.max(0, ...after.map((s) => s.ring_max_pct ?? 0)),
      order_p99_ms_after_warmup: p99Start,
      order_p99_ms_end: p99End,
      orders_per_s_median: median(after.map((s) => s.orders_per_s)),
      unexpected_answers: soak.errors,
      unexpected_kinds: JSON.stringify(Object.fromEntries(soak.unexpected)),
      series: JSON.stringify(samples),
    },
    ratios: { anon_end_over_after_warmup: Number((anonEnd / anonStart).toFixed(3)), order_p99_end_over_after_warmup: Number((p99End / p99Start).toFixed(2)) },
    targets: {
      memory_flat: { value: Number(perHour.toFixed(1)), met: memoryFlat, rule: `anonymous memory growth after warm-up <= ${Math.round(growthLimit)} MB/h (least-squares slope)` },
      p99_steady: { value: p99End, met: p99Steady, rule: `order p99 <= max(${P99_DRIFT.floor_ms} ms, ${P99_DRIFT.ratio} x ${p99Start} ms)` },
      no_unexpected_answers: { value: soak.errors, met: soak.errors === 0, rule: '== 0' },
    },
  });
  console.log(`anonymous memory ${anonStart} -> ${anonEnd} MB, ${perHour.toFixed(1)} MB/h (limit ${Math.round(growthLimit)} MB/h), order p99 ${p99Start} -> ${p99End} ms, ${soak.errors} unexpected answers ${JSON.stringify(Object.fromEntries(soak.unexpected))}; wrote ${path}`);
  if (!memoryFlat || !p99Steady || soak.errors > 0) process.exitCode = 1;
}

await main();
