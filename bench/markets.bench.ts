/**
 * The prediction-market listing under load, as ratios to the authenticated GET /v1/api_keys of
 * the same service in the same run (issue 12):
 *
 *   1. wrk (1 thread, 50 connections): GET /v1/markets?expand=outcomes&limit=500 (500 expanded
 *      rows, ~700 KB of JSON a page) and GET /v1/api_keys, alternating rounds; requests/s, p99.
 *   2. A full cursor walk over more than 10,000 markets (`active=true&closed=true&expand=outcomes`,
 *      500 rows a page, one client, page after page) against as many sequential GET
 *      /v1/api_keys; total time of each, alternating rounds.
 *
 * The service runs a world of BENCH_MARKETS_EVENTS long-dated events (default 5,000: over
 * 10,000 binary markets on the token-style venue), so every listing request scans that catalog.
 */
import { median, startServiceProcess } from './lib/processes.ts';
import { target, runIfMain, type BenchResult } from './lib/results.ts';
import { assertWrk, runWrk, WRK_CONNECTIONS, type WrkFigures } from './lib/wrk.ts';

const DURATION_S = Number(process.env['BENCH_MARKETS_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_MARKETS_ROUNDS'] ?? 3);
const EVENTS = Number(process.env['BENCH_MARKETS_EVENTS'] ?? 5_000);
const WALK_QUERY = 'active=true&closed=true&expand=outcomes&limit=500';
const MIN_WALK_ROWS = 10_000;

interface Page {
  markets: unknown[];
  has_more: boolean;
  next_cursor: string | null;
}

async function getJson<T>(url: string, key: string): Promise<{ status: number; body: T }> {
  const res = await fetchOnce(url, key);
  return { status: res.status, body: (await res.json()) as T };
}

/**
 * fetch, once more on a fresh connection when the pooled one was closed by the server while
 * idle (the keep-alive race after the wrk rounds: the server's idle timeout is 10 s).
 */
async function fetchOnce(url: string, key: string): Promise<Response> {
  const init = { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) };
  try {
    return await fetch(url, init);
  } catch (err) {
    if ((err as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw err;
    return fetch(url, init);
  }
}

/** Walks every page of the walk query; returns the rows and pages seen and the time taken. */
async function walk(base: string, key: string): Promise<{ rows: number; pages: number; ms: number }> {
  const started = performance.now();
  let rows = 0;
  let pages = 0;
  let cursor: string | null = null;
  for (;;) {
    const res: { status: number; body: Page } = await getJson<Page>(`${base}/v1/markets?${WALK_QUERY}${cursor === null ? '' : `&cursor=${cursor}`}`, key);
    if (res.status !== 200) throw new Error(`walk page answered ${res.status}`);
    rows += res.body.markets.length;
    pages++;
    if (!res.body.has_more || res.body.next_cursor === null) break;
    cursor = res.body.next_cursor;
  }
  return { rows, pages, ms: performance.now() - started };
}

async function sequential(url: string, key: string, n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await fetchOnce(url, key);
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
  }
  return performance.now() - started;
}

export async function run(): Promise<BenchResult> {
  assertWrk();
  const service = await startServiceProcess({ SIM_PREDICTION_EVENTS: String(EVENTS) });
  try {
    const base = `http://127.0.0.1:${service.port}`;
    const key = service.apiKey;
    const auth = [`Authorization: Bearer ${key}`];
    const marketsUrl = `${base}/v1/markets?expand=outcomes&limit=500`;
    const keysUrl = `${base}/v1/api_keys`;

    // The catalog reaches the gateway within seconds of the start: wait for the full walk.
    const deadline = Date.now() + 60_000;
    let first = await walk(base, key);
    while (first.rows < MIN_WALK_ROWS && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1_000));
      first = await walk(base, key);
    }
    if (first.rows < MIN_WALK_ROWS) throw new Error(`the walk saw ${first.rows} rows, fewer than ${MIN_WALK_ROWS}`);

    runWrk(marketsUrl, auth, DURATION_S);
    runWrk(keysUrl, auth, DURATION_S);
    const marketsRounds: WrkFigures[] = [];
    const keysRounds: WrkFigures[] = [];
    const walks: { rows: number; pages: number; ms: number }[] = [];
    const keyWalks: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      keysRounds.push(runWrk(keysUrl, auth, DURATION_S));
      marketsRounds.push(runWrk(marketsUrl, auth, DURATION_S));
      const w = await walk(base, key);
      walks.push(w);
      keyWalks.push(await sequential(keysUrl, key, w.pages));
    }
    if ([...marketsRounds, ...keysRounds].some((r) => r.non2xx > 0)) throw new Error('non-2xx answers during the run');

    const marketsRps = median(marketsRounds.map((r) => r.rps));
    const keysRps = median(keysRounds.map((r) => r.rps));
    const marketsP99 = median(marketsRounds.map((r) => r.p99_ms));
    const keysP99 = median(keysRounds.map((r) => r.p99_ms));
    const walkMs = median(walks.map((w) => w.ms));
    const keyWalkMs = median(keyWalks);
    const walkRows = median(walks.map((w) => w.rows));
    const walkPages = median(walks.map((w) => w.pages));
    return {
      name: 'markets',
      description:
        `GET /v1/markets?expand=outcomes&limit=500 vs GET /v1/api_keys under wrk -t1 -c${WRK_CONNECTIONS} -d${DURATION_S}s, ` +
        `and a full cursor walk (${WALK_QUERY}) vs as many sequential GET /v1/api_keys, ${ROUNDS} alternating rounds, medians; ` +
        `world of ${EVENTS} long-dated events`,
      metrics: {
        markets_rps: Math.round(marketsRps),
        markets_p50_ms: median(marketsRounds.map((r) => r.p50_ms)),
        markets_p99_ms: marketsP99,
        api_keys_rps: Math.round(keysRps),
        api_keys_p99_ms: keysP99,
        walk_rows: walkRows,
        walk_pages: walkPages,
        walk_ms: Math.round(walkMs),
        walk_ms_per_page: Number((walkMs / walkPages).toFixed(2)),
        api_keys_sequence_ms: Math.round(keyWalkMs),
        rounds: ROUNDS,
      },
      ratios: {
        markets_over_api_keys_rps: Number((marketsRps / keysRps).toFixed(4)),
        markets_over_api_keys_p99: Number((marketsP99 / keysP99).toFixed(2)),
        walk_over_api_keys_sequence_time: Number((walkMs / keyWalkMs).toFixed(2)),
      },
      targets: {
        // A 500-row page is ~700 KB of JSON against ~1 KB: its cost is the bytes (~3 ms a page
        // on the one gateway thread), so 50 connections queue ~50 pages. Held to a walk of
        // every row of 10,000+ markets within a second, and the page's p99 under 250 ms.
        walk_ms: target(Math.round(walkMs), 1_000, '<='),
        markets_p99_ms: target(marketsP99, 250, '<='),
      },
    };
  } finally {
    await service.stop();
  }
}

await runIfMain(import.meta.url, run);
