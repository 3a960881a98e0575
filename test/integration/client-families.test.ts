/**
 * The typed client (client/, `@sequence/client`) against the real service on loopback, for
 * every operation family of the OpenAPI document (issue 17): each call goes through
 * `createClient` with typed paths, parameters and bodies, and each assertion reads typed fields
 * of the answer (`ok(...)`), so `tsc` checks this file against client/src/schema.ts. Where the
 * embedded default answers an error (no trading wallet, a market not resolved, a key in use), the
 * assertion is on the thrown `ApiError`'s status and code.
 *
 * Families: health (+live, ready, safety, edges, feeds), openapi.json, api_keys, credentials,
 * orders (preview, submit, get, list, cancel), fills, execution_graphs (an armed order
 * activated), parent_orders, positions (+sync), risk, sandbox (reset, settings, positions),
 * wallets (+trading, default, create-managed, withdraw, token-info), market_data/pools, markets,
 * settlement, redeem, rewards, deployments (a real WASM fixture created, started, stopped,
 * deleted), analytics (execution, venues, tca and its five views, market), alerts, kill_switch
 * (an admin client of its own), ws/ticket, symbols, edges, fair_price, fees, quotes (one, many,
 * batch), price_history, data (ticks, range, health, recon, signals, stats), funding rates and
 * history. The last test reads the document and checks that every operation in it was called.
 *
 * Not here: the streams. The SSE endpoints (/v1/risk/stream, /v1/tca/stream, /v1/alerts/stream)
 * are covered by client-channels.test.ts (`ServiceEvents`) and alerts.test.ts; the WebSockets
 * (/v1/stream, /v1/ws/new_markets, /v1/ws/market_resolved) by client-stream.test.ts,
 * client-channels.test.ts and ws-stream.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ApiError, createClient, ok, type ServiceClient } from '../../client/src/index.ts';
import { clientWithKeys, startTestService, until, type TestService } from '../helpers/service.ts';
import { assertNbbo } from '../helpers/nbbo.ts';

const SYMBOL = 'BTC-USDT';
const TERMINAL = new Set(['COMPLETED', 'CANCELLED', 'REJECTED', 'UNRESOLVED']);
const RECIPIENT = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
/** Operations a request-response client cannot call: event streams and WebSocket upgrades. */
const STREAMS = new Set([
  'GET /v1/risk/stream',
  'GET /v1/tca/stream',
  'GET /v1/alerts/stream',
  'GET /v1/stream',
  'GET /v1/ws/new_markets',
  'GET /v1/ws/market_resolved',
]);

/** The answer is the service's error envelope with this status and code, thrown by `ok` as an ApiError. */
function refused(answer: { data?: unknown; error?: unknown; response: Response }, status: number, code: string): void {
  assert.throws(
    () => ok(answer),
    (err: unknown) => {
      assert.ok(err instanceof ApiError, String(err));
      assert.deepEqual([err.status, err.code], [status, code], err.message);
      assert.ok((err.requestId ?? '').length > 0, 'the envelope names its request');
      return true;
    },
  );
}

describe('typed client: every operation family against the real service', { timeout: 120_000 }, () => {
  let svc: TestService;
  let sandboxKey: string;
  /** the client's sandbox key: most calls */
  let sandbox: ServiceClient;
  /** the same account's live key: the sandbox endpoints refuse it */
  let live: ServiceClient;
  /** no key: the public endpoints */
  let anonymous: ServiceClient;
  /** "METHOD /path" of every request any client here sent, as the document names the path */
  const called = new Set<string>();

  // No retries: a 503 or 429 is an answer under test here, not something to wait out.
  const clientFor = (apiKey?: string): ServiceClient => {
    const client = createClient({ baseUrl: svc.base, retry: false, ...(apiKey === undefined ? {} : { apiKey }) });
    client.use({
      onRequest({ schemaPath, request }) {
        called.add(`${request.method} ${schemaPath}`);
      },
    });
    return client;
  };
  const order = (id: string) => sandbox.GET('/v1/orders/{node_order_id}', { params: { path: { node_order_id: id }, query: { expand: 'fills' } } });
  const terminal = (id: string) =>
    until(`order ${id} terminal`, async () => {
      const o = ok(await order(id));
      return TERMINAL.has(o.status) ? o : undefined;
    });

  before(async () => {
    svc = await startTestService();
    const keys = await clientWithKeys(svc, 'families');
    sandboxKey = keys.sandbox;
    sandbox = clientFor(keys.sandbox);
    live = clientFor(keys.live);
    anonymous = clientFor();
    await until('service ready', async () => ((await anonymous.GET('/v1/health/ready')).data?.ready === true ? true : undefined), 30_000);
    ok(await sandbox.POST('/v1/sandbox/reset'));
    await until(`a live ${SYMBOL} quote`, async () => {
      const { data } = await sandbox.GET('/v1/quotes/{symbol}', { params: { path: { symbol: SYMBOL } } });
      return data?.source === 'edge_nbbo' && data.nbbo.bid > 0 ? true : undefined;
    }, 15_000, 100);
  });
  after(async () => svc?.stop());

  it('health: the public probes, the edge drift report, feed health (bearer) and the OpenAPI document', async () => {
    const health = ok(await anonymous.GET('/v1/health'));
    assert.ok(health.status === 'ok' || health.status === 'degraded', health.status);
    assert.ok(health.storage.open && health.workers.length >= 2 && health.kill_switch.active === false);
    assert.equal(ok(await anonymous.GET('/v1/health/live')).status, 'alive');
    assert.ok(ok(await anonymous.GET('/v1/health/ready')).workers >= 2);
    const safety = ok(await anonymous.GET('/v1/health/safety'));
    assert.deepEqual([safety.safe, safety.kill_switch_active], [true, false]);
    const drift = ok(await anonymous.GET('/v1/health/edges'));
    assert.ok(drift.edges.some((e) => e.connected && e.venue === 'binance'), JSON.stringify(drift.edges));
    const feeds = ok(await sandbox.GET('/v1/health/feeds'));
    assert.ok(feeds.symbols.some((s) => s.symbol === SYMBOL && s.venues_quoting > 0));
    assert.ok(feeds.rings.length >= 2 && feeds.venues.some((v) => v.connected));
    assert.equal(feeds.reconciliation.state, 'not_applicable');
    refused(await anonymous.GET('/v1/health/feeds'), 401, 'UNAUTHENTICATED');
    const doc = ok(await anonymous.GET('/v1/openapi.json'));
    assert.match(doc.openapi, /^3\.1\./);
    assert.equal(doc.info.version, '1.0.0');
    assert.ok('/v1/orders' in doc.paths);
  });

  it('api keys: list, create (sandbox forced), rotate (old key inactive at once), delete; the key in use is refused', async () => {
    const listed = ok(await sandbox.GET('/v1/api_keys'));
    const inUse = listed.find((k) => sandboxKey.startsWith(k.key_prefix));
    assert.ok(inUse !== undefined && inUse.is_active && inUse.is_sandbox, 'the calling key is listed');
    assert.ok(listed.every((k) => k.is_sandbox), 'a sandbox key sees sandbox keys only');
    const created = ok(await sandbox.POST('/v1/api_keys', { body: { label: 'families-extra', sandbox: false } }));
    assert.deepEqual([created.label, created.is_sandbox], ['families-extra', true]);
    assert.ok(created.raw_key.startsWith(created.key_prefix));
    const rotated = ok(await sandbox.POST('/v1/api_keys/{key_id}/rotate', { params: { path: { key_id: created.id } } }));
    assert.notEqual(rotated.id, created.id);
    assert.equal(rotated.label, 'families-extra');
    const after = ok(await sandbox.GET('/v1/api_keys'));
    assert.equal(after.find((k) => k.id === created.id)?.is_active, false, 'rotation deactivates the old key');
    refused(await sandbox.POST('/v1/api_keys/{key_id}/rotate', { params: { path: { key_id: created.id } } }), 409, 'KEY_INACTIVE');
    const deleted = ok(await sandbox.DELETE('/v1/api_keys/{key_id}', { params: { path: { key_id: rotated.id } } }));
    assert.deepEqual([deleted.id, deleted.is_active], [rotated.id, false]);
    refused(await sandbox.DELETE('/v1/api_keys/{key_id}', { params: { path: { key_id: inUse.id } } }), 409, 'KEY_IN_USE');
  });

  it('credentials: store (durable), list in the key\'s mode, delete; deleting again is a 404', async () => {
    const venue = 'kraken';
    const stored = ok(await sandbox.POST('/v1/credentials/{venue}', { params: { path: { venue } }, body: { api_key: 'key-kraken-0123456789', api_secret: 'secret-kraken-0123456789abcdef' } }));
    assert.deepEqual([stored.venue, stored.status], [venue, 'stored']);
    const listed = ok(await sandbox.GET('/v1/credentials'));
    assert.deepEqual([listed.venues, listed.unsafe], [[venue], []]);
    assert.deepEqual(ok(await live.GET('/v1/credentials')).venues, [], 'the live mode has its own rows');
    const deleted = ok(await sandbox.DELETE('/v1/credentials/{venue}', { params: { path: { venue } } }));
    assert.deepEqual([deleted.venue, deleted.deleted], [venue, true]);
    refused(await sandbox.DELETE('/v1/credentials/{venue}', { params: { path: { venue } } }), 404, 'NOT_FOUND');
  });

  it('orders and fills: preview, submit, get with fills and TCA, list, cancel; an armed order activated; parent orders', async () => {
    const shape = { symbol: SYMBOL, side: 'buy', order_type: 'market', qty_1e8: 1_000_000 } as const;
    const preview = ok(await sandbox.POST('/v1/orders/preview', { body: shape }));
    assert.deepEqual([preview.plan.node_order_id, preview.plan.requested_qty_1e8], ['preview', 1_000_000]);
    assert.ok(preview.plan.allocations.length > 0 && (preview.landed_cost_1e9 ?? 0) > 0, JSON.stringify(preview));

    const placed = ok(await sandbox.POST('/v1/orders', { body: { ...shape, client_order_id: 'families-buy-1' } }));
    assert.deepEqual([placed.client_order_id, placed.is_sandbox, placed.execution_type], ['families-buy-1', true, 'graph']);
    const done = await terminal(placed.node_order_id);
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    assert.equal((done.fills ?? []).reduce((sum, f) => sum + f.qty_1e8, 0), 1_000_000, 'fills expanded, summing to the order');
    assert.equal(done.tca?.filled_qty_1e8, 1_000_000);

    const fills = ok(await sandbox.GET('/v1/fills', { params: { query: { node_order_id: placed.node_order_id, limit: 100 } } }));
    assert.ok(fills.fills.length > 0 && fills.fills.every((f) => f.node_order_id === placed.node_order_id && f.side === 'buy' && f.instrument_type === 'spot'));
    const listed = ok(await sandbox.GET('/v1/orders', { params: { query: { symbol: SYMBOL, limit: 10 } } }));
    assert.ok(listed.orders.some((o) => o.node_order_id === placed.node_order_id));
    assert.ok((listed.counts.COMPLETED ?? 0) >= 1 && listed.scope === 'client');

    // Armed: parked with no venue footprint until its graph is activated.
    const armed = ok(await sandbox.POST('/v1/orders', { body: { ...shape, client_order_id: 'families-armed-1', start_armed: true } }));
    assert.equal(armed.execution_type, 'armed');
    assert.ok(armed.graph_id !== null);
    const activated = ok(await sandbox.POST('/v1/execution_graphs/{graph_id}/activate', { params: { path: { graph_id: armed.graph_id } } }));
    assert.equal(activated.node_order_id, armed.node_order_id);
    assert.equal((await terminal(armed.node_order_id)).status, 'COMPLETED');

    // Cancel: a second armed order, cancelled before activation; its graph is then not armed.
    const parked = ok(await sandbox.POST('/v1/orders', { body: { ...shape, client_order_id: 'families-armed-2', start_armed: true } }));
    const cancelled = ok(await sandbox.DELETE('/v1/orders/{node_order_id}', { params: { path: { node_order_id: parked.node_order_id } } }));
    assert.deepEqual(cancelled, { node_order_id: parked.node_order_id, status: 'CANCELLED' });
    refused(await sandbox.POST('/v1/execution_graphs/{graph_id}/activate', { params: { path: { graph_id: parked.graph_id ?? '' } } }), 409, 'GRAPH_NOT_ARMED');
    refused(await sandbox.GET('/v1/orders/{node_order_id}', { params: { path: { node_order_id: 'no-such-order' } } }), 404, 'NOT_FOUND');

    const parent = ok(await sandbox.POST('/v1/parent_orders', { body: { client_order_id: 'families-parent-1', side: 'BUY', symbol: SYMBOL, qty_1e8: 1_000_000 } }));
    assert.deepEqual([parent.side, parent.symbol, parent.qty_1e8], ['BUY', SYMBOL, 1_000_000]);
    await terminal(parent.parent_id);
    const parents = ok(await sandbox.GET('/v1/parent_orders', { params: { query: { symbol: SYMBOL, status: 'COMPLETED', limit: 10 } } }));
    assert.ok(parents.orders.some((p) => p.parent_id === parent.parent_id && p.filled_qty_1e8 === 1_000_000));
    assert.ok(parents.total >= 3 && parents.offset === 0, JSON.stringify(parents));
  });

  it('positions, sync and risk; sandbox settings, reset and stated positions (a live key is refused)', async () => {
    const settings = ok(await sandbox.GET('/v1/sandbox/settings'));
    assert.ok(settings.initial_balance_usd > 0 && settings.reject_rate >= 0);
    const pending = ok(await sandbox.PUT('/v1/sandbox/settings', { body: { initial_balance_usd: 2_000_000 } }));
    assert.equal(pending.initial_balance_usd, 2_000_000);
    const reset = ok(await sandbox.POST('/v1/sandbox/reset'));
    assert.deepEqual([reset.reset, reset.initial_balance_usd], [true, 2_000_000]);
    assert.ok(reset.venues_seeded.includes('binance'));
    const written = ok(await sandbox.POST('/v1/sandbox/positions', { body: { positions: [{ venue: 'binance', kind: 'crypto', symbol: 'ETH', qty: 1.5, entry_price_usd: 2000 }], replace: false } }));
    assert.deepEqual([written.written, written.deleted], [1, 0]);
    refused(await live.POST('/v1/sandbox/reset'), 403, 'SANDBOX_ONLY');

    const book = ok(await sandbox.GET('/v1/positions', { params: { query: { venues: 'binance', kinds: 'crypto' } } }));
    const eth = book.positions.find((p) => p.instrument.kind === 'crypto' && p.instrument.symbol === 'ETH');
    assert.ok(eth !== undefined, JSON.stringify(book.positions));
    assert.deepEqual([eth.qty_1e8, eth.entry_price_usd_1e9, eth.is_sandbox, eth.lifecycle.state], [150_000_000, 2_000_000_000_000, true, 'active']);
    assert.equal(book.totals.num_positions, book.positions.length);
    const sync = ok(await sandbox.POST('/v1/positions/sync'));
    assert.ok(typeof sync.synced === 'boolean' && sync.message.length > 0);
    const risk = ok(await sandbox.GET('/v1/risk'));
    assert.equal(risk.kill_switch.active, false);
    assert.ok(risk.limits.max_order_notional_usd_1e9 > 0 && risk.working_orders === 0 && risk.nav_usd_1e9 > 0);
  });

  it('wallets: none at first (typed NO_TRADING_WALLET), a managed one created provisioning, a second create and a withdrawal refused; token info', async () => {
    assert.deepEqual(ok(await sandbox.GET('/v1/wallets')).wallets, []);
    refused(await sandbox.GET('/v1/wallets/trading'), 404, 'NO_TRADING_WALLET');
    const withdrawal = { chain: 'dex-eth', token: 'ETH', amount: '0.1', recipient: RECIPIENT } as const;
    refused(await sandbox.POST('/v1/wallets/withdraw', { body: withdrawal }), 404, 'NO_TRADING_WALLET');
    const wallet = ok(await sandbox.POST('/v1/wallets/trading/create-managed', { body: { label: 'families' } }));
    assert.deepEqual([wallet.scope, wallet.role, wallet.status, wallet.label], ['dex', 'trading', 'provisioning', 'families']);
    assert.equal(wallet.wallet_id, `${wallet.signer_backend}:${wallet.address}`);
    refused(await sandbox.POST('/v1/wallets/trading/create-managed', { body: { label: 'again' } }), 409, 'WALLET_EXISTS');
    refused(await sandbox.POST('/v1/wallets/withdraw', { body: withdrawal }), 409, 'TRADING_WALLET_NOT_READY');
    assert.equal(ok(await sandbox.GET('/v1/wallets/default')).wallet_id, wallet.wallet_id);
    assert.deepEqual(ok(await sandbox.GET('/v1/wallets')).wallets.map((w) => w.wallet_id), [wallet.wallet_id]);
    const tokens = ok(await anonymous.GET('/v1/token-info'));
    assert.equal(tokens.count, tokens.tokens.length);
    assert.ok(tokens.tokens.some((t) => t.symbol === 'USDC' && t.chains.some((c) => c.chain === 'dex-arb' && c.contract !== null)));
  });

  it('market data: symbols, edges, quotes (one, many, batch), fair price, fees, price history, ticks, funding, pools', async () => {
    const symbols = ok(await sandbox.GET('/v1/symbols'));
    assert.equal(symbols.count, symbols.symbols.length);
    assert.ok(symbols.symbols.some((s) => s.symbol === SYMBOL && s.venues.some((v) => v.venue === 'binance' && v.min_qty_1e8 > 0)));
    const edges = ok(await sandbox.GET('/v1/edges'));
    assert.ok(edges.length > 0 && edges.every((e) => e.symbol_count === e.symbols.length));

    const quote = ok(await sandbox.GET('/v1/quotes/{symbol}', { params: { path: { symbol: SYMBOL }, query: { depth: 5 } } }));
    assert.equal(quote.symbol, SYMBOL);
    assert.ok(quote.book.bids.length > 0 && quote.book.bids.length <= 5);
    assertNbbo(quote.nbbo);
    const many = ok(await sandbox.GET('/v1/quotes', { params: { query: { symbols: SYMBOL, max_age_s: 300 } } }));
    assert.ok(many.quotes.some((q) => q.symbol === SYMBOL && q.nbbo.bid > 0));
    const batch = ok(await sandbox.POST('/v1/quotes_batch', { body: { symbols: [SYMBOL, 'NOPE-USDT'], depth: 3, nowait: false, concurrency: 2 } }));
    assert.equal(batch.count, 2);
    const [hit, miss] = batch.quotes;
    assert.ok(hit !== undefined && !('error' in hit) && hit.symbol === SYMBOL && hit.book.asks.length <= 3, JSON.stringify(hit));
    assert.ok(miss !== undefined && 'error' in miss && miss.symbol === 'NOPE-USDT' && miss.code.length > 0, JSON.stringify(miss));

    await until('BTC fair price tracked', async () => (ok(await sandbox.GET('/v1/fair_price')).underlyings.includes('BTC') ? true : undefined));
    const fair = ok(await sandbox.GET('/v1/fair_price/{underlying}', { params: { path: { underlying: 'BTC' } } }));
    assert.equal(fair.underlying, 'BTC');
    assert.ok(fair.fair_mid_1e9 > 0 && fair.contributors.length > 0 && fair.confidence >= 0 && fair.confidence <= 1);
    const fees = ok(await sandbox.GET('/v1/fees', { params: { query: { ticker: SYMBOL, venues: 'binance' } } }));
    assert.deepEqual(fees.fees.map((f) => [f.venue, f.fee_model]), [['binance', 'linear']]);
    assert.ok((fees.fees[0]?.taker_bps ?? -1) >= 0);

    const history = await until('tick-mode price history', async () => {
      const h = ok(await sandbox.GET('/v1/price_history/{symbol}', { params: { path: { symbol: SYMBOL }, query: { range: '1h', fidelity_secs: 0, limit: 5 } } }));
      return h.points.length > 0 ? h : undefined;
    });
    assert.ok(history.points.length <= 5 && history.points.every((p) => p.price_1e9 > 0 && (p.side === 'buy' || p.side === 'sell')));
    const recent = await until('recent ticks', async () => {
      const t = ok(await sandbox.GET('/v1/data/ticks', { params: { query: { symbol: SYMBOL, limit: 3 } } }));
      return t.ticks.length === 3 ? t : undefined;
    });
    assert.ok(recent.ticks.every((t) => t.qty_1e8 > 0 && t.trade_id.length > 0));
    const from = new Date(Date.now() - 120_000).toISOString();
    const range = ok(await sandbox.GET('/v1/data/ticks/range', { params: { query: { symbol: SYMBOL, from, limit: 50 } } }));
    assert.ok(range.ticks.length > 0 && range.ticks.length <= 50 && typeof range.has_more === 'boolean');
    assert.ok(range.ticks.every((t) => t.ts_ns >= Date.parse(from) * 1e6));

    const rates = ok(await sandbox.GET('/v1/market/funding-rates'));
    assert.ok(rates.rates.some((r) => r.venue === 'hyperliquid') && rates.rates.every((r) => r.interval_hours > 0));
    const funding = ok(await sandbox.GET('/v1/funding_history/{symbol}', { params: { path: { symbol: SYMBOL }, query: { venue: 'okx', range: '1d', limit: 2 } } }));
    assert.ok(funding.history.length > 0 && funding.history.length <= 2 && funding.history.every((h) => h.venue === 'okx'));
    const pools = ok(await sandbox.GET('/v1/market_data/pools', { params: { query: { symbol: 'ETH-USDC-dex-arb' } } }));
    assert.ok(pools.pools.length > 0 && pools.pools.every((p) => p.chain === 'dex-arb' && p.gas_context.chain_id === 42161 && p.bid < p.ask));
  });

  it('data engine: tape health and statistics, signals, reconciliation of the orders above', async () => {
    const health = await until('tape written', async () => {
      const h = ok(await sandbox.GET('/v1/data/health'));
      return h.ok ? h : undefined;
    });
    assert.ok(health.written > 0 && health.retention_ms > 0);
    const stats = ok(await sandbox.GET('/v1/data/stats'));
    assert.equal(stats.window_ms, 3_600_000);
    assert.ok((stats.trades_last_hour[SYMBOL] ?? 0) > 0 && stats.tape.written > 0);
    const signals = ok(await sandbox.GET('/v1/data/signals', { params: { query: { symbol: SYMBOL, horizon_s: 30, levels: 5 } } }));
    assert.deepEqual(signals.signals.map((s) => [s.symbol, s.instrument_type, s.book_imbalance.levels]), [[SYMBOL, 'spot', 5]]);
    const recon = ok(await sandbox.GET('/v1/data/recon', { params: { query: { limit: 50 } } }));
    assert.equal(recon.is_sandbox, true);
    assert.ok(recon.drift.orders_checked >= 3 && recon.in_doubt.count === 0, JSON.stringify(recon.drift));
  });

  it('prediction markets: both venues listed, a resolved market\'s settlement, redeem (noop, or MARKET_NOT_RESOLVED), maker rewards', async () => {
    const poly = await until('the token-style catalog', async () => {
      const page = ok(await sandbox.GET('/v1/markets', { params: { query: { venue: 'polymarket', limit: 20 } } }));
      return page.count > 0 ? page : undefined;
    });
    assert.equal(poly.venue, 'polymarket');
    assert.equal(poly.count, poly.markets.length);
    const kalshi = ok(await sandbox.GET('/v1/markets', { params: { query: { venue: 'kalshi', limit: 5 } } }));
    assert.ok(kalshi.markets.length > 0 && kalshi.markets.every((m) => m.venue === 'kalshi'));

    const resolved = ok(await sandbox.GET('/v1/markets', { params: { query: { venue: 'polymarket', active: false, closed: true, limit: 5 } } }));
    const done = resolved.markets.find((m) => m.yes_token_id !== null);
    assert.ok(done !== undefined, 'a resolved binary market');
    const settlement = ok(await sandbox.GET('/v1/settlement/{slug}', { params: { path: { slug: done.slug }, query: { underlying: false } } }));
    assert.equal(settlement.slug, done.slug);
    assert.ok(settlement.status === 'resolved' && settlement.resolved_outcome !== null, JSON.stringify(settlement));
    const redeemed = ok(await sandbox.POST('/v1/markets/{slug}/redeem', { params: { path: { slug: done.slug } } }));
    assert.deepEqual([redeemed.mode, redeemed.slug], ['noop', done.slug], 'nothing held, nothing to redeem');
    const open = poly.markets.find((m) => m.yes_token_id !== null && m.status === 'open');
    assert.ok(open !== undefined);
    refused(await sandbox.POST('/v1/markets/{slug}/redeem', { params: { path: { slug: open.slug }, query: { venue: 'polymarket' } } }), 409, 'MARKET_NOT_RESOLVED');

    const rewards = ok(await sandbox.GET('/v1/{prediction_venue}/rewards', { params: { path: { prediction_venue: 'polymarket' } } }));
    assert.equal(rewards.count, rewards.rewards.length);
    const first = rewards.rewards[0];
    assert.ok(first !== undefined, 'a rewarded token');
    const config = ok(await sandbox.GET('/v1/{prediction_venue}/rewards/{token_id}', { params: { path: { prediction_venue: 'polymarket', token_id: first.token_id } } }));
    assert.deepEqual([config.token_id, config.condition_id], [first.token_id, first.condition_id]);
    assert.ok(config.rate_per_day_usdc > 0 && config.rewards_min_size > 0);
  });

  it('deployments: a WASM fixture created, started, its logs read, stopped, deleted; then a typed 404', async () => {
    const wasm = readFileSync(new URL('../fixtures/algos/healthy.wasm', import.meta.url));
    assert.deepEqual(ok(await sandbox.GET('/v1/deployments')).deployments, []);
    const created = ok(await sandbox.POST('/v1/deployments', { body: { name: 'families-healthy', symbols: [SYMBOL], venue: 'okx', artifact_base64: wasm.toString('base64'), start_immediately: false } }));
    assert.deepEqual([created.status, created.name, created.is_sandbox, created.symbols], ['created', 'families-healthy', true, [SYMBOL]]);
    assert.equal(created.artifact.bytes, wasm.length);
    assert.match(created.artifact.sha256, /^[0-9a-f]{64}$/);
    const path = { params: { path: { deployment_id: created.deployment_id } } };
    const started = ok(await sandbox.POST('/v1/deployments/{deployment_id}/start', path));
    assert.deepEqual([started.status, started.starts], ['running', 1], JSON.stringify(started));
    assert.ok(started.edges.some((e) => e.venue === 'okx' && e.symbol === SYMBOL));
    const logs = ok(await sandbox.GET('/v1/deployments/{deployment_id}/logs', { params: { path: { deployment_id: created.deployment_id }, query: { limit: 10 } } }));
    assert.ok(logs.deployment_id === created.deployment_id && logs.lines.length <= 10 && logs.dropped >= 0);
    assert.equal(ok(await sandbox.GET('/v1/deployments')).deployments[0]?.deployment_id, created.deployment_id);
    const stopped = ok(await sandbox.POST('/v1/deployments/{deployment_id}/stop', path));
    assert.equal(stopped.status, 'stopped');
    assert.equal(ok(await sandbox.GET('/v1/deployments/{deployment_id}', path)).status, 'stopped');
    const deleted = ok(await sandbox.DELETE('/v1/deployments/{deployment_id}', path));
    assert.deepEqual([deleted.deleted, deleted.deployment_id], [true, created.deployment_id]);
    refused(await sandbox.GET('/v1/deployments/{deployment_id}', path), 404, 'NOT_FOUND');
  });

  it('analytics: execution, venues, TCA (summary, venues, timeseries, versions, report, quality) over the orders above, and a market', async () => {
    const execution = await until('the orders above in execution analytics', async () => {
      const a = ok(await sandbox.GET('/v1/analytics/execution', { params: { query: { symbol: SYMBOL } } }));
      return a.orders.completed >= 3 ? a : undefined;
    });
    assert.deepEqual([execution.symbol, execution.is_sandbox], [SYMBOL, true]);
    assert.ok(execution.fills.count > 0 && execution.fills.volume_usd_1e9 > 0);
    const venues = ok(await sandbox.GET('/v1/analytics/venues'));
    assert.ok(venues.venues.length > 0 && venues.venues.every((v) => v.sent >= v.filled));
    const tca = ok(await sandbox.GET('/v1/analytics/tca', { params: { query: { symbol: SYMBOL } } }));
    assert.ok(tca.tca.orders >= 3 && tca.tca.notional_usd_1e9 > 0 && tca.prediction.is_prediction);
    const byVenue = ok(await sandbox.GET('/v1/analytics/tca/venues'));
    assert.ok(byVenue.venues.length > 0 && byVenue.venues.every((v) => v.share_of_notional > 0));
    const series = ok(await sandbox.GET('/v1/analytics/tca/timeseries', { params: { query: { interval: '1h' } } }));
    assert.equal(series.interval, '1h');
    assert.ok(series.points.reduce((n, p) => n + p.orders, 0) >= 3);
    const versions = ok(await sandbox.GET('/v1/analytics/tca/versions'));
    assert.ok(versions.versions.reduce((n, v) => n + v.orders, 0) >= 3 && Array.isArray(versions.comparisons));
    const report = ok(await sandbox.GET('/v1/analytics/tca/report', { params: { query: { period: 'week' } } }));
    assert.equal(report.period, 'week');
    assert.ok(report.headline.orders >= 3 && report.symbols.some((s) => s.symbol === SYMBOL));
    const quality = ok(await sandbox.GET('/v1/analytics/tca/quality'));
    assert.ok(quality.with_tca >= 3 && quality.filled_orders >= quality.with_tca);
    const market = ok(await sandbox.GET('/v1/analytics/market/{symbol}', { params: { path: { symbol: SYMBOL }, query: { depth: 5 } } }));
    assert.deepEqual([market.symbol, market.depth_levels], [SYMBOL, 5]);
    assert.ok(market.mid > 0 && market.bid_depth > 0 && Object.keys(market.venues).length > 0);
  });

  it('alerts: a price alert created, listed, fired (its event listed), read and deleted; then a typed 404', async () => {
    const mid = ok(await sandbox.GET('/v1/quotes/{symbol}', { params: { path: { symbol: SYMBOL } } })).nbbo.mid;
    const alert = ok(await sandbox.POST('/v1/alerts', { body: { kind: 'price', symbol: SYMBOL, direction: 'above', threshold: Math.floor(mid * 0.9), once: true, label: 'families' } }));
    assert.deepEqual([alert.kind, alert.symbol, alert.direction, alert.label, alert.is_sandbox], ['price', SYMBOL, 'above', 'families', true]);
    assert.ok(ok(await sandbox.GET('/v1/alerts')).alerts.some((a) => a.alert_id === alert.alert_id));
    const event = await until('the alert fired', async () => ok(await sandbox.GET('/v1/alerts/events', { params: { query: { alert_id: alert.alert_id, limit: 10 } } })).events[0]);
    assert.deepEqual([event.alert_id, event.kind], [alert.alert_id, 'price']);
    assert.ok((event.value ?? 0) > Math.floor(mid * 0.9) && event.message.length > 0);
    const fired = ok(await sandbox.GET('/v1/alerts/{alert_id}', { params: { path: { alert_id: alert.alert_id } } }));
    assert.deepEqual([fired.status, fired.fired_count], ['fired', 1]);
    const deleted = ok(await sandbox.DELETE('/v1/alerts/{alert_id}', { params: { path: { alert_id: alert.alert_id } } }));
    assert.equal(deleted.alert_id, alert.alert_id);
    refused(await sandbox.GET('/v1/alerts/{alert_id}', { params: { path: { alert_id: alert.alert_id } } }), 404, 'NOT_FOUND');
  });

  it('a WebSocket ticket over REST (the socket itself is other tests\')', async () => {
    const ticket = ok(await sandbox.GET('/v1/ws/ticket'));
    assert.ok(ticket.ticket.length > 0 && ticket.expires_in_ms > 0);
    assert.ok(Date.parse(ticket.expires_at) > Date.now());
  });

  it('kill switch: an admin client of its own arms it (safety probe 503 DISPATCH_HALTED, risk shows it) and disarms it; a non-admin is refused', async () => {
    const storage = svc.service.storage;
    await storage.clients.put({ client_id: 'families-admin', tier: 'enterprise', rate_limit_qps: 2_000, is_admin: true, created_at_ms: Date.now() });
    const admin = clientFor((await storage.apiKeys.create('families-admin', { label: 'admin', sandbox: false })).raw_key);
    refused(await sandbox.PUT('/v1/kill_switch', { body: { active: true } }), 403, 'FORBIDDEN');
    try {
      const armed = ok(await admin.PUT('/v1/kill_switch', { body: { active: true, reason: 'client-families' } }));
      assert.deepEqual([armed.status, armed.kill_switch.active, armed.kill_switch.reason, armed.kill_switch.updated_by], ['active', true, 'client-families', 'families-admin']);
      refused(await anonymous.GET('/v1/health/safety'), 503, 'DISPATCH_HALTED');
      assert.equal(ok(await sandbox.GET('/v1/risk')).kill_switch.active, true);
    } finally {
      const disarmed = ok(await admin.PUT('/v1/kill_switch', { body: { active: false } }));
      assert.deepEqual([disarmed.status, disarmed.kill_switch.active], ['inactive', false]);
    }
    assert.equal(ok(await anonymous.GET('/v1/health/safety')).safe, true);
  });

  it('every operation of the OpenAPI document was called through the typed client above, the streams aside', async () => {
    const doc = ok(await anonymous.GET('/v1/openapi.json'));
    const methods = new Set(['get', 'put', 'post', 'delete', 'patch']);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => methods.has(m))
        .map((m) => `${m.toUpperCase()} ${path}`),
    );
    assert.ok(operations.length > 80, `${operations.length} operations`);
    for (const stream of STREAMS) assert.ok(operations.includes(stream), `${stream} is in the document`);
    const missed = operations.filter((op) => !STREAMS.has(op) && !called.has(op));
    assert.deepEqual(missed, [], 'operations no test here called');
  });
});
