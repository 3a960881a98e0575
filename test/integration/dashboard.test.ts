/**
 * The dashboard (`/dashboard`, docs/dashboard.md) in headless Chromium against
 * the real service: a client trades on three symbols, pastes its key into the page, and sees its
 * quotes, its orders, its positions and TCA charts drawn by Chart.js from the analytics; an order
 * submitted after the page loaded appears in the blotter over the WebSocket, without a reload.
 * The static files themselves: content types, revalidation by ETag, the page's CSP, GET only,
 * and no trace in the OpenAPI document. A screenshot is written to test/output/dashboard.png.
 *
 * Needs Debian's Chromium (`apt-get install -y chromium`; `CHROMIUM_PATH` names another): without
 * it the suite is skipped, unless CI is set, where it fails.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { call, envelope, startTradingService, until, type TradingService } from '../helpers/service.ts';
import { TERMINAL, type ApiOrder } from '../helpers/orders.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const IN_CI = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';
const SYMBOLS = ['BTC-USDT', 'ETH-USDT', 'SOL-USDT'];
const VENUES = ['binance', 'okx', 'bybit'];
const SCREENSHOT = join(import.meta.dirname, '..', 'output', 'dashboard.png');
/** Every wait in the browser is bounded by this. */
const WAIT_MS = 20_000;

/** Market orders on each symbol, both sides, small enough for one venue's touch or a split. */
const ORDERS = [
  { symbol: 'BTC-USDT', side: 'buy', qty_1e8: 5_000_000 },
  { symbol: 'ETH-USDT', side: 'buy', qty_1e8: 150_000_000 },
  { symbol: 'SOL-USDT', side: 'buy', qty_1e8: 2_000_000_000 },
  { symbol: 'BTC-USDT', side: 'buy', qty_1e8: 20_000_000 },
  { symbol: 'ETH-USDT', side: 'sell', qty_1e8: 50_000_000 },
  { symbol: 'SOL-USDT', side: 'sell', qty_1e8: 500_000_000 },
] as const;

/**
 * What the test reads of the page's globals inside `page.evaluate` (the project compiles without
 * the DOM library; the cast is erased before the function is sent to the browser).
 */
interface PageGlobals {
  sessionStorage: { getItem(key: string): string | null };
  localStorage: { length: number };
  document: { querySelector(selector: string): { textContent: string | null } | null };
  Chart: { getChart(id: string): { data: { labels: unknown[]; datasets: { label: string; data: unknown[] }[] } } | undefined };
  notReloaded?: boolean;
}

const skip = !HAVE_CHROMIUM && !IN_CI ? `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)` : false;

describe('dashboard in headless Chromium (real service)', { skip }, () => {
  let t: TradingService;
  let browser: Browser;
  let page: Page;
  const orders: ApiOrder[] = [];
  const pageErrors: string[] = [];
  /** Every URL the page requested, and every WebSocket it opened. */
  const requests: string[] = [];
  const sockets: string[] = [];

  const submit = async (i: string, order: { symbol: string; side: string; qty_1e8: number }): Promise<ApiOrder> => {
    const res = await call<ApiOrder>(t.base, 'POST', '/v1/orders', { token: t.token, body: { client_order_id: `dash-${i}`, order_type: 'market', ...order } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return until(`order dash-${i} terminal`, async () => {
      const o = (await call<ApiOrder>(t.base, 'GET', `/v1/orders/${res.body.node_order_id}`, { token: t.token })).body;
      return TERMINAL.has(o.status) ? o : undefined;
    });
  };

  /** A Chart.js chart's datasets, as the page holds them (the UMD build's global `Chart`). */
  const chartData = (id: string) =>
    page.evaluate((canvasId) => {
      const chart = (globalThis as unknown as PageGlobals).Chart.getChart(canvasId);
      return chart === undefined ? null : { labels: chart.data.labels.map(String), datasets: chart.data.datasets.map((d) => ({ label: d.label, data: d.data })) };
    }, id);

  const kpi = (panel: string, label: string) => page.locator(`${panel} div`).filter({ has: page.locator('dt', { hasText: label }) }).locator('dd').textContent();

  before(async () => {
    assert.ok(HAVE_CHROMIUM, `CI is set and there is no Chromium at ${CHROMIUM}: .ci/run installs it (apt-get install -y chromium)`);
    t = await startTradingService({ client: 'dashboard-client', venues: VENUES, symbol: SYMBOLS[0] });
    await until('live quotes on every symbol', async () => {
      const res = await call<{ quotes: { symbol: string }[] }>(t.base, 'GET', `/v1/quotes?symbols=${SYMBOLS.join(',')}`, { token: t.token });
      return res.body.quotes.length === SYMBOLS.length ? true : undefined;
    });
    for (const [i, order] of ORDERS.entries()) orders.push(await submit(String(i), order));
    browser = await chromium.launch({ executablePath: CHROMIUM, timeout: WAIT_MS });
    page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.setDefaultTimeout(WAIT_MS);
    page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
    page.on('request', (req) => requests.push(req.url()));
    page.on('websocket', (ws) => sockets.push(ws.url()));
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(`console: ${msg.text()}`);
    });
  });

  after(async () => {
    await browser?.close();
    await t?.svc.stop();
  });

  it('serves the page and its files with their content types, revalidated by ETag, GET only, outside the API document', async () => {
    for (const [path, type] of [
      ['/dashboard', /^text\/html/],
      ['/dashboard/app.js', /^text\/javascript/],
      ['/dashboard/app.css', /^text\/css/],
      ['/dashboard/vendor/chart.umd.min.js', /^text\/javascript/],
    ] as const) {
      const res = await fetch(t.base + path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', type, path);
      assert.equal(res.headers.get('cache-control'), 'no-cache', path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
      const etag = res.headers.get('etag');
      assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/, path);
      assert.ok((await res.arrayBuffer()).byteLength > 500, path);
      const again = await fetch(t.base + path, { headers: { 'if-none-match': etag! } });
      assert.equal(again.status, 304, `${path} revalidated`);
      assert.equal((await again.arrayBuffer()).byteLength, 0);
    }
    const page = await fetch(`${t.base}/dashboard`);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.match(await page.text(), /<canvas id="chart-versions">/);
    const post = await call(t.base, 'POST', '/dashboard', { body: {} });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
    assert.equal(envelope(post.body).code, 'METHOD_NOT_ALLOWED');
    assert.equal((await call(t.base, 'GET', '/dashboard/missing.js')).status, 404);
    const doc = await call<{ paths: Record<string, unknown> }>(t.base, 'GET', '/v1/openapi.json');
    assert.deepEqual(Object.keys(doc.body.paths).filter((p) => p.startsWith('/dashboard')), []);
  });

  it('reads quotes, orders, positions and TCA with the pasted key, and takes a new order live over the WebSocket', async (ctx) => {
    await page.goto(`${t.base}/dashboard`);
    await page.fill('#key', t.token);
    await page.click('#connect');
    await page.waitForSelector('body[data-loaded="true"]');

    // The key: in this tab's session storage, never in a URL (the WebSocket's has a ticket) or local storage.
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).sessionStorage.getItem('dashboard.api_key')), t.token);
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).localStorage.length), 0);
    await page.waitForSelector('#ws-state[data-state="live"]');
    assert.equal(sockets.length, 1);
    assert.match(sockets[0]!, /\/v1\/stream\?ticket=[^&]+$/);
    assert.deepEqual([page.url(), ...requests, ...sockets].filter((url) => url.includes(t.token)), []);
    assert.equal(await page.inputValue('#key'), '');
    assert.equal(await page.textContent('#mode'), 'live');

    // Market overview: every symbol's NBBO as numbers, and its venues' tops. Bid and ask are
    // read in one call (the prices channel rewrites them between two), and compared loosely:
    // the simulated venues' consolidated book may cross for a moment.
    const price = (text: string | null) => Number((text ?? '').replace(/,/g, ''));
    for (const symbol of SYMBOLS) {
      const card = page.locator(`.quote[data-symbol="${symbol}"]`);
      const [bid = NaN, ask = NaN] = (await card.locator('.nbbo b').allTextContents()).map(price);
      assert.ok(bid > 0 && ask > 0 && Math.abs(ask - bid) / bid < 0.01, `${symbol} bid ${bid} ask ${ask}`);
      assert.match((await card.locator('.spread').textContent()) ?? '', /^\d+\.\d\d bps$/);
      assert.ok((await card.locator('tbody tr').count()) >= 3, `${symbol} venue rows`);
      const binanceBid = price(await card.locator('tr[data-venue="binance"] td.bid').textContent());
      // The NBBO is live (prices channel), the venue rows polled: close, not equal.
      assert.ok(Math.abs(binanceBid - bid) / bid < 0.01, `${symbol} binance bid ${binanceBid} near the NBBO bid ${bid}`);
    }

    // The blotter: every order submitted, with its status and, once complete, its shortfall.
    for (const o of orders) {
      const row = page.locator(`#blotter tr[data-order-id="${o.node_order_id}"]`);
      assert.equal(await row.count(), 1, o.node_order_id);
      assert.equal(await row.locator('.status-tag').textContent(), o.status);
      if (o.tca !== null) assert.match((await row.locator('td').nth(10).textContent()) ?? '', /^[+-]?\d+\.\d\d$/);
    }

    // Positions: the bought assets on the venues that filled them.
    for (const asset of ['BTC', 'ETH', 'SOL', 'USDT']) {
      assert.ok((await page.locator(`#positions tr[data-asset="${asset}"]`).count()) >= 1, `a ${asset} row`);
    }
    assert.match((await kpi('#position-totals', 'NAV')) ?? '', /^\d[\d,.]*[MB]?$/);

    // TCA: the headline counts the orders that have TCA, and each chart holds data.
    const withTca = orders.filter((o) => o.tca !== null);
    assert.ok(withTca.length >= 4, `${withTca.length} orders with TCA`);
    assert.equal(await kpi('#tca-kpis', 'Orders'), String(withTca.length));
    const series = await chartData('chart-timeseries');
    assert.ok(series !== null && series.labels.length >= 1, 'timeseries buckets');
    assert.deepEqual(series.datasets.map((d) => d.label), ['Avg shortfall', 'p95', 'Orders']);
    assert.equal((series.datasets[2]!.data as number[]).reduce((s, n) => s + n, 0), withTca.length, 'orders over the buckets');
    const venues = await chartData('chart-venues');
    const filledOn = new Set(withTca.flatMap((o) => o.children.filter((c) => c.filled_qty_1e8 > 0).map((c) => c.venue)));
    assert.deepEqual(new Set(venues!.labels.map((l) => l.split(' ')[0])), filledOn, 'one bar per venue that filled');
    assert.ok(venues!.datasets[0]!.data.every((v) => typeof v === 'number'));
    const versions = await chartData('chart-versions');
    assert.deepEqual(versions!.labels.map((l) => l.split(' ')[0]), ['v1', 'v2', 'v3']);
    const used = new Set(withTca.map((o) => o.routing_version as number));
    const means = versions!.datasets[1]!.data;
    for (const v of [1, 2, 3]) assert.equal(typeof means[v - 1] === 'number', used.has(v), `version ${v} has a mean iff it has orders`);
    for (const id of ['chart-timeseries', 'chart-venues', 'chart-versions']) {
      const size = await page.locator(`#${id}`).boundingBox();
      assert.ok(size !== null && size.width > 200 && size.height > 150, `${id} drawn at ${JSON.stringify(size)}`);
    }

    // Live: a new order reaches the blotter over /v1/stream: the page neither reloads nor reads /v1/orders again.
    await page.evaluate(() => ((globalThis as unknown as PageGlobals).notReloaded = true));
    const requestsBefore = requests.length;
    const live = await submit('live', { symbol: 'BTC-USDT', side: 'buy', qty_1e8: 1_000_000 });
    const liveRow = page.locator(`#blotter tr[data-order-id="${live.node_order_id}"]`);
    await liveRow.locator('.status-tag', { hasText: live.status }).waitFor();
    assert.equal(await page.locator('#blotter tbody tr').first().getAttribute('data-order-id'), live.node_order_id, 'newest first');
    if (live.tca !== null) await page.waitForFunction((n) => (globalThis as unknown as PageGlobals).document.querySelector('#tca-kpis dd')?.textContent === n, String(withTca.length + 1));
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).notReloaded), true);
    assert.deepEqual(requests.slice(requestsBefore).filter((url) => new URL(url).pathname.startsWith('/v1/orders')), []);
    assert.ok(Number(await page.getAttribute('#ws-state', 'data-frames')) > 0);

    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    ctx.diagnostic(`screenshot: ${SCREENSHOT}`);
    console.log(`dashboard screenshot: ${SCREENSHOT}`);
    assert.deepEqual(pageErrors, [], 'no script errors or CSP violations in the page');
  });

  it('forgets the key on request: nothing of the session stays on the page', async () => {
    await page.click('#forget');
    assert.equal(await page.evaluate(() => (globalThis as unknown as PageGlobals).sessionStorage.getItem('dashboard.api_key')), null);
    assert.equal(await page.locator('#blotter tbody tr').count(), 0);
    await page.waitForSelector('#ws-state[data-state="off"]');
    await page.reload();
    assert.equal(await page.getAttribute('body', 'data-state'), 'signed-out');
    assert.deepEqual(pageErrors, []);
  });
});
