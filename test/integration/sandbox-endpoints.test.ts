/**
 * The sandbox endpoints against the real service (gateway, two workers, LMDB), rule by rule of
 * the spec's "Sandbox (sandbox key required)" section: qty signs (1), default entry prices (2),
 * replace against upsert (3), symbols per kind and the event-contract parsing with a 78-digit
 * token id (4, 5), writes seen at once by GET /v1/positions and by the orders' balances (6), the
 * reset's contents and its default of 1e9 USD per quote asset, exactly 100000000000000000 in
 * `_1e8` (7), settings effective only from the next reset (8), and 403 for a live credential on
 * every endpoint (9). Bad input is a 400 that writes nothing; one client's sandbox is invisible to
 * its live key and to every other client; 10,000 positions in one call are written, read back
 * (page by page inside) and survive a restart (their checkpoint crossed to the journal in parts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { VENUES } from '../../domain/market.ts';
import { edgesOfVenue } from '../../domain/venues.ts';
import { effectiveSandboxSettings, SANDBOX_DEFAULT_SETTINGS } from '../../storage/sandbox-settings.ts';
import { TERMINAL, type ApiOrder } from '../helpers/orders.ts';
import { call, envelope, startTestService, TEST_JWT_SECRET, TEST_OPERATOR_KEY, until, type JsonResponse, type TestService, clientWithKeys } from '../helpers/service.ts';

interface Position {
  id: number;
  venue: string;
  instrument: { kind: string; code?: string; symbol?: string; base?: string; market_slug?: string; outcome?: string; token_id?: string | null; expiry_ts?: number | null };
  qty_1e8: number;
  locked_qty_1e8: number;
  available_qty_1e8: number;
  entry_price_usd_1e9: number;
  current_price_usd_1e9?: number;
  current_value_usd_1e9: number;
  unrealized_pnl_usd_1e9: number;
  realized_pnl_usd_1e9: number;
  fees_usd_1e9: number;
  lifecycle: { state: string };
  transferable: boolean;
  settled: boolean;
  settled_mark_usd_1e9?: number | null;
  is_sandbox: boolean;
}
interface PositionsBody {
  positions: Position[];
  totals: { num_positions: number; nav_usd_1e9: number; cash_usd_1e9: number };
}

const ENDPOINTS: [method: string, path: string, body?: unknown][] = [
  ['POST', '/v1/sandbox/positions', { positions: [{ venue: 'binance', kind: 'crypto', symbol: 'BTC', qty: 1 }] }],
  ['POST', '/v1/sandbox/reset'],
  ['GET', '/v1/sandbox/settings'],
  ['PUT', '/v1/sandbox/settings', { initial_balance_usd: 5 }],
];
const TOKEN_ID_78 = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
/** Every venue with markets and the quote assets it trades: what a reset seeds. */
// A prediction venue's account is its cash: USD on the ticker-style venue, USDC on the token-style one.
const PREDICTION_CASH: Record<string, string[]> = { kalshi: ['USD'], polymarket: ['USDC'] };
const SEEDED = VENUES.map((venue) => [venue, PREDICTION_CASH[venue] ?? [...new Set(edgesOfVenue(venue).flatMap((e) => e.listings.map((l) => l.quote)))].sort()] as const).filter(([, q]) => q.length > 0);
const kindOf = (asset: string) => (asset === 'USD' ? 'fiat' : 'crypto');
const assetOf = (p: Position) => p.instrument.code ?? p.instrument.symbol;

function assertError(res: JsonResponse, status: number, code: string): ReturnType<typeof envelope> {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${JSON.stringify(res.body)?.slice(0, 500)}`);
  const err = envelope(res.body);
  assert.equal(err.code, code);
  return err;
}

describe('sandbox endpoints (real service)', () => {
  let svc: TestService;
  let base: string;
  let live: string;
  let sandbox: string;
  let otherSandbox: string;

  const keysOf = (clientId: string) => clientWithKeys(svc, clientId);
  const positions = async (token: string, query = '?include_closed=true'): Promise<PositionsBody> => {
    const res = await call<PositionsBody>(base, 'GET', `/v1/positions${query}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body)?.slice(0, 500));
    return res.body;
  };
  const write = (token: string, body: unknown) => call<{ written: number; deleted: number }>(base, 'POST', '/v1/sandbox/positions', { token, body });
  const reset = (token: string) => call<{ reset: true; initial_balance_usd: number; venues_seeded: string[]; orders_ended: number }>(base, 'POST', '/v1/sandbox/reset', { token });

  before(async () => {
    svc = await startTestService();
    base = svc.base;
    await until('service ready', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    ({ live, sandbox } = await keysOf('sbx-alice'));
    otherSandbox = (await keysOf('sbx-bob')).sandbox;
  });

  after(async () => {
    await svc?.stop();
  });

  it('rule 9: a live key, the operator and a JWT get 403 SANDBOX_ONLY on every sandbox endpoint, bad body or not, and nothing changes', async () => {
    const jwt = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('sbx-alice').setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(TEST_JWT_SECRET));
    for (const token of [live, TEST_OPERATOR_KEY, jwt]) {
      for (const [method, path, body] of ENDPOINTS) {
        assertError(await call(base, method, path, { token, ...(body === undefined ? {} : { body }) }), 403, 'SANDBOX_ONLY');
        // Permission comes before validation: a live key learns nothing about the body.
        if (method !== 'GET') assertError(await call(base, method, path, { token, rawBody: '{"nonsense": [' }), 403, 'SANDBOX_ONLY');
      }
    }
    assert.equal((await positions(sandbox)).positions.length, 0, 'nothing was written');
    assert.deepEqual((await call(base, 'GET', '/v1/sandbox/settings', { token: sandbox })).body, SANDBOX_DEFAULT_SETTINGS);
    assertError(await call(base, 'POST', '/v1/sandbox/reset'), 401, 'UNAUTHENTICATED');
  });

  it('rule 7: a reset seeds 1e9 USD of each quote asset on every venue (a prediction venue its cash): exactly 100000000000000000 in _1e8', async () => {
    const res = await reset(sandbox);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { reset: true, initial_balance_usd: 1_000_000_000, venues_seeded: SEEDED.map(([v]) => v), orders_ended: 0 });
    assert.ok(res.body.venues_seeded.includes('kalshi') && res.body.venues_seeded.includes('polymarket'), 'prediction venues get their cash');
    // Exact in the JSON text itself, not only after parsing.
    const raw = await fetch(`${base}/v1/positions`, { headers: { authorization: `Bearer ${sandbox}` } }).then((r) => r.text());
    assert.match(raw, /"qty_1e8":100000000000000000,/);
    const { positions: rows, totals } = await positions(sandbox, '');
    const expected = SEEDED.flatMap(([venue, quotes]) => quotes.map((q) => `${venue} ${kindOf(q)} ${q}`)).sort();
    assert.deepEqual(rows.map((p) => `${p.venue} ${p.instrument.kind} ${assetOf(p)}`).sort(), expected);
    for (const p of rows) {
      assert.equal(p.qty_1e8, 100_000_000_000_000_000);
      assert.equal(p.qty_1e8, 1e17);
      assert.equal(p.entry_price_usd_1e9, 1_000_000_000);
      assert.equal(p.is_sandbox, true);
      assert.equal(p.lifecycle.state, 'active');
    }
    assert.equal(totals.num_positions, expected.length);
    assert.equal(totals.cash_usd_1e9, expected.length * 1e18, 'every row is $1 cash');
  });

  it('rules 1, 2, 4, 5: every kind with every Position field, default entry prices, event-contract symbols (78-digit token id)', async () => {
    const res = await write(sandbox, {
      replace: true,
      positions: [
        { venue: 'coinbase', kind: 'fiat', symbol: 'USD', qty: 1000 },
        { venue: 'kraken', kind: 'fiat', symbol: 'EUR', qty: 250.75 },
        { venue: 'binance', kind: 'crypto', symbol: 'USDC', qty: 50.5 },
        { venue: 'binance', kind: 'crypto', symbol: 'BTC', qty: 0.29 },
        { venue: 'okx', kind: 'crypto', symbol: 'ETH', qty: 0.00000001, entry_price_usd: 3400.123456789 },
        { venue: 'hyperliquid', kind: 'perp', symbol: 'BTC-USDC', qty: -1.5, entry_price_usd: 60000.5 },
        { venue: 'binance', kind: 'perp', symbol: 'ETH-USDT', qty: 2 },
        { venue: 'kalshi', kind: 'event_contract', symbol: 'FEDCUT-25DEC:YES', qty: 10, entry_price_usd: 0.42 },
        { venue: 'kalshi', kind: 'event_contract', symbol: 'FEDCUT-25DEC:NO', qty: 5 },
        { venue: 'polymarket', kind: 'event_contract', symbol: TOKEN_ID_78, qty: 3, entry_price_usd: 0.123456789 },
        { venue: 'polymarket', kind: 'event_contract', symbol: '12345678901234567890123456789', qty: 1 },
        { venue: 'polymarket', kind: 'event_contract', symbol: 'will-it-rain-tomorrow', qty: 0 },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { written: 12, deleted: SEEDED.flatMap(([, q]) => q).length });
    const rows = (await positions(sandbox)).positions;
    const summary = rows.map((p) => [p.venue, p.instrument, p.qty_1e8, p.entry_price_usd_1e9, p.lifecycle.state]);
    const event = (market_slug: string, outcome: string, token_id: string | null) => ({ kind: 'event_contract', market_slug, outcome, token_id, expiry_ts: null });
    assert.deepEqual(summary, [
      ['coinbase', { kind: 'fiat', code: 'USD' }, 100_000_000_000, 1_000_000_000, 'active'],
      ['kraken', { kind: 'fiat', code: 'EUR' }, 25_075_000_000, 1_000_000_000, 'active'],
      ['binance', { kind: 'crypto', symbol: 'USDC' }, 5_050_000_000, 1_000_000_000, 'active'],
      ['binance', { kind: 'crypto', symbol: 'BTC' }, 29_000_000, 0, 'active'],
      ['okx', { kind: 'crypto', symbol: 'ETH' }, 1, 3_400_123_456_789, 'active'],
      ['hyperliquid', { kind: 'perp', symbol: 'BTC-USDC', base: 'BTC' }, -150_000_000, 60_000_500_000_000, 'active'],
      ['binance', { kind: 'perp', symbol: 'ETH-USDT', base: 'ETH' }, 200_000_000, 0, 'active'],
      ['kalshi', event('FEDCUT-25DEC', 'YES', null), 1_000_000_000, 420_000_000, 'active'],
      ['kalshi', event('FEDCUT-25DEC', 'NO', null), 500_000_000, 0, 'active'],
      ['polymarket', event(TOKEN_ID_78, 'YES', TOKEN_ID_78), 300_000_000, 123_456_789, 'active'],
      ['polymarket', event('12345678901234567890123456789', 'YES', null), 100_000_000, 0, 'active'],
      ['polymarket', event('will-it-rain-tomorrow', 'YES', null), 0, 0, 'closed'],
    ]);
    const always = ['id', 'venue', 'instrument', 'qty_1e8', 'locked_qty_1e8', 'available_qty_1e8', 'entry_price_usd_1e9', 'current_value_usd_1e9', 'unrealized_pnl_usd_1e9', 'realized_pnl_usd_1e9', 'fees_usd_1e9', 'lifecycle', 'transferable', 'settled', 'is_sandbox'];
    for (const p of rows) {
      const perpFields = ['initial_margin_usd_1e9', 'maintenance_margin_usd_1e9', 'leverage', 'liquidation_price_1e9', 'margin_state', 'funding_usd_1e9'];
      const fields = [...always, ...(p.instrument.kind === 'fiat' ? [] : ['current_price_usd_1e9']), ...(p.instrument.kind === 'event_contract' ? ['settled_mark_usd_1e9'] : []), ...(p.instrument.kind === 'perp' ? perpFields : [])];
      assert.deepEqual(Object.keys(p).sort(), fields.sort(), `${p.venue} ${p.instrument.kind}`);
      assert.equal(p.is_sandbox, true);
      assert.equal(p.locked_qty_1e8, 0);
      assert.equal(p.available_qty_1e8, p.qty_1e8);
      assert.equal(p.transferable, p.instrument.kind === 'fiat' || p.instrument.kind === 'crypto');
      assert.equal(p.settled, false);
      if (p.instrument.kind === 'event_contract') assert.equal(p.settled_mark_usd_1e9, null);
    }
    // Closed rows are hidden by default (the qty-0 event contract).
    assert.equal((await positions(sandbox, '')).positions.length, rows.length - 1);
  });

  it('rule 3: without replace, rows upsert by (venue, kind, symbol); with replace, every row goes first', async () => {
    const before = (await positions(sandbox)).positions;
    const btc = before.find((p) => p.venue === 'binance' && p.instrument.symbol === 'BTC')!;
    const res = await write(sandbox, {
      positions: [
        { venue: 'binance', kind: 'crypto', symbol: 'BTC', qty: 1, entry_price_usd: 95000 },
        { venue: 'bybit', kind: 'crypto', symbol: 'SOL', qty: 12.5 },
        // The same position twice in one call: the later one wins.
        { venue: 'bybit', kind: 'crypto', symbol: 'SOL', qty: 13 },
      ],
    });
    assert.deepEqual(res.body, { written: 3, deleted: 0 });
    const after = (await positions(sandbox)).positions;
    assert.equal(after.length, before.length + 1);
    const btcAfter = after.find((p) => p.venue === 'binance' && p.instrument.symbol === 'BTC')!;
    assert.equal(btcAfter.id, btc.id, 'the same row');
    assert.equal(btcAfter.qty_1e8, 100_000_000);
    assert.equal(btcAfter.entry_price_usd_1e9, 95_000_000_000_000);
    assert.equal(after.find((p) => p.instrument.symbol === 'SOL')?.qty_1e8, 1_300_000_000);
    for (const p of before.filter((r) => r.id !== btc.id)) {
      assert.deepEqual(after.find((r) => r.id === p.id)?.qty_1e8, p.qty_1e8, 'the other rows are untouched');
    }
    const replaced = await write(sandbox, { replace: true, positions: [{ venue: 'coinbase', kind: 'crypto', symbol: 'USDT', qty: 10 }] });
    assert.deepEqual(replaced.body, { written: 1, deleted: after.length });
    const only = (await positions(sandbox)).positions;
    assert.deepEqual(only.map((p) => [p.venue, assetOf(p), p.qty_1e8]), [['coinbase', 'USDT', 1_000_000_000]]);
    assert.ok(only[0]!.id > Math.max(...after.map((p) => p.id)), 'row ids are never reused');
    // replace with no positions empties the account.
    assert.deepEqual((await write(sandbox, { replace: true, positions: [] })).body, { written: 0, deleted: 1 });
    assert.equal((await positions(sandbox)).positions.length, 0);
  });

  it('bad input is a 400 naming the field, and the whole call writes nothing', async () => {
    await write(sandbox, { replace: true, positions: [{ venue: 'binance', kind: 'crypto', symbol: 'BTC', qty: 2 }] });
    // What was written, without the marks (they move with the market).
    const stored = async () => JSON.stringify((await positions(sandbox)).positions.map((p) => [p.id, p.venue, p.instrument, p.qty_1e8, p.entry_price_usd_1e9, p.lifecycle]));
    const snapshot = await stored();
    const ok = { venue: 'binance', kind: 'crypto', symbol: 'ETH', qty: 1 };
    const bad: [body: unknown, field: string][] = [
      [{ positions: [ok, { ...ok, kind: 'option' }] }, 'positions[1].kind'],
      [{ positions: [ok, { ...ok, qty: -1 }] }, 'positions[1].qty'],
      [{ positions: [{ venue: 'coinbase', kind: 'fiat', symbol: 'USD', qty: -0.01 }] }, 'positions[0].qty'],
      [{ positions: [{ venue: 'kalshi', kind: 'event_contract', symbol: 'X:YES', qty: -1 }] }, 'positions[0].qty'],
      [{ positions: [{ ...ok, qty: 1e16 }] }, 'positions[0].qty'],
      [{ positions: [{ ...ok, qty: 0.123456789 }] }, 'positions[0].qty'],
      [{ positions: [{ ...ok, entry_price_usd: 0.1234567891 }] }, 'positions[0].entry_price_usd'],
      [{ positions: [{ ...ok, entry_price_usd: -1 }] }, 'positions[0].entry_price_usd'],
      [{ positions: [{ ...ok, venue: 'nasdaq' }] }, 'positions[0].venue'],
      [{ positions: [{ venue: 'binance', kind: 'crypto', qty: 1 }] }, 'positions[0].symbol'],
      [{ positions: [{ venue: 'binance', kind: 'crypto', symbol: 'ETH' }] }, 'positions[0].qty'],
      [{ positions: [{ kind: 'crypto', symbol: 'ETH', qty: 1 }] }, 'positions[0].venue'],
      [{ positions: [{ ...ok, qty: '1' }] }, 'positions[0].qty'],
      [{ positions: [{ ...ok, colour: 'red' }] }, 'positions[0].colour'],
      [{ positions: [ok], dry_run: true }, 'dry_run'],
      [{ replace: true }, 'positions'],
      [{ positions: ok }, 'positions'],
      [{ positions: [{ venue: 'coinbase', kind: 'fiat', symbol: 'BTC', qty: 1 }] }, 'positions[0].symbol'],
      [{ positions: [{ ...ok, symbol: 'USD' }] }, 'positions[0].symbol'],
      [{ positions: [{ ...ok, symbol: 'eth' }] }, 'positions[0].symbol'],
      [{ positions: [{ venue: 'hyperliquid', kind: 'perp', symbol: 'BTCUSDC', qty: 1 }] }, 'positions[0].symbol'],
      [{ positions: [{ ...ok, symbol: '' }] }, 'positions[0].symbol'],
      [{ positions: [{ ...ok, symbol: 'bad\u0007name' }] }, 'positions[0].symbol'],
      [{ positions: Array.from({ length: 10_001 }, () => ok) }, 'positions'],
    ];
    for (const [body, field] of bad) {
      const err = assertError(await write(sandbox, body), 400, 'VALIDATION_ERROR');
      assert.ok(err.details.some((d) => d.field === field), `${JSON.stringify(body).slice(0, 200)}: ${JSON.stringify(err.details.slice(0, 5))}`);
    }
    // Not finite: JSON has no Infinity, but 1e999 parses as one.
    assertError(await call(base, 'POST', '/v1/sandbox/positions', { token: sandbox, rawBody: '{"positions":[{"venue":"binance","kind":"crypto","symbol":"ETH","qty":1e999}]}' }), 400, 'VALIDATION_ERROR');
    assertError(await call(base, 'POST', '/v1/sandbox/positions', { token: sandbox, rawBody: '' }), 400, 'VALIDATION_ERROR');
    assertError(await call(base, 'POST', '/v1/sandbox/reset', { token: sandbox, body: { initial_balance_usd: 5 } }), 400, 'VALIDATION_ERROR');
    assert.equal(await stored(), snapshot, 'nothing was written');
  });

  it('rule 8: settings are every setting (defaults until set), echoed by PUT, and take effect only on the next reset', async () => {
    const get = async () => (await call(base, 'GET', '/v1/sandbox/settings', { token: sandbox })).body;
    await reset(sandbox);
    const seededBefore = JSON.stringify((await positions(sandbox)).positions.map((p) => p.qty_1e8));
    assert.deepEqual(await get(), SANDBOX_DEFAULT_SETTINGS);
    const put = await call(base, 'PUT', '/v1/sandbox/settings', { token: sandbox, body: { initial_balance_usd: 2500.5, seed: 42, reject_rate: 0.25, latency_ms: 150, cancel_race: true } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const pending = { initial_balance_usd: 2500.5, seed: 42, latency_ms: 150, reject_rate: 0.25, partial_fill_rate: 0, disconnect_rate: 0, cancel_race: true };
    assert.deepEqual(put.body, pending);
    assert.deepEqual(await get(), pending);
    // Not yet effective: the balances and the settings the orders run with are the old ones.
    assert.equal(JSON.stringify((await positions(sandbox)).positions.map((p) => p.qty_1e8)), seededBefore);
    assert.deepEqual(effectiveSandboxSettings(svc.service.storage.db, 'sbx-alice'), SANDBOX_DEFAULT_SETTINGS);
    // A setting left out keeps its pending value; seed null goes back to the service seed.
    const partial = await call(base, 'PUT', '/v1/sandbox/settings', { token: sandbox, body: { initial_balance_usd: 2500.5, seed: null, disconnect_rate: 0.5 } });
    assert.deepEqual(partial.body, { ...pending, seed: null, disconnect_rate: 0.5 });

    const res = await reset(sandbox);
    assert.equal(res.body.initial_balance_usd, 2500.5);
    for (const p of (await positions(sandbox)).positions) assert.equal(p.qty_1e8, 250_050_000_000);
    assert.deepEqual(effectiveSandboxSettings(svc.service.storage.db, 'sbx-alice'), { ...pending, seed: null, disconnect_rate: 0.5 });
    assert.deepEqual(svc.service.storage.sandboxSettings.effective('sbx-alice'), { ...pending, seed: null, disconnect_rate: 0.5 });
    // Another client's settings are its own.
    assert.deepEqual((await call(base, 'GET', '/v1/sandbox/settings', { token: otherSandbox })).body, SANDBOX_DEFAULT_SETTINGS);

    for (const [body, field] of [
      [{ initial_balance_usd: 0.123456789 }, 'initial_balance_usd'],
      [{ initial_balance_usd: -1 }, 'initial_balance_usd'],
      [{ initial_balance_usd: 1e11 }, 'initial_balance_usd'],
      [{ reject_rate: 0.1 }, 'initial_balance_usd'],
      [{ initial_balance_usd: 1, reject_rate: 1.5 }, 'reject_rate'],
      [{ initial_balance_usd: 1, latency_ms: 10_001 }, 'latency_ms'],
      [{ initial_balance_usd: 1, latency_ms: 1.5 }, 'latency_ms'],
      [{ initial_balance_usd: 1, seed: -1 }, 'seed'],
      [{ initial_balance_usd: 1, cancel_race: 'yes' }, 'cancel_race'],
      [{ initial_balance_usd: 1, verbose: true }, 'verbose'],
    ] as const) {
      const err = assertError(await call(base, 'PUT', '/v1/sandbox/settings', { token: sandbox, body }), 400, 'VALIDATION_ERROR');
      assert.ok(err.details.some((d) => d.field === field), `${JSON.stringify(body)}: ${JSON.stringify(err.details)}`);
    }
    assert.deepEqual(await get(), { ...pending, seed: null, disconnect_rate: 0.5 }, 'refused settings changed nothing');
    // Back to the defaults for the tests that follow.
    await call(base, 'PUT', '/v1/sandbox/settings', { token: sandbox, body: SANDBOX_DEFAULT_SETTINGS });
    await reset(sandbox);
  });

  it("isolation: the live key sees no sandbox row, another client's sandbox key sees none of this client's, and its reset touches none", async () => {
    await write(sandbox, { positions: [{ venue: 'kalshi', kind: 'event_contract', symbol: 'ISO:YES', qty: 7 }] });
    const mine = (await positions(sandbox)).positions;
    assert.ok(mine.length > 1 && mine.every((p) => p.is_sandbox));
    const liveView = await positions(live);
    assert.deepEqual(liveView.positions, [], 'no live row: this client stored no venue credentials');
    assert.equal(liveView.totals.num_positions, 0);
    assert.deepEqual((await positions(otherSandbox)).positions, []);
    await reset(otherSandbox);
    const theirs = (await positions(otherSandbox)).positions;
    assert.ok(theirs.length > 0 && !theirs.some((p) => p.instrument.market_slug === 'ISO'));
    assert.deepEqual((await positions(sandbox)).positions, mine, "another client's reset touched nothing of this one");
  });

  it('rules 6 and 7: written balances are what sandbox orders trade from at once; a reset ends working orders', async () => {
    await until('BTC-USDT quoted', async () => ((await call(base, 'GET', '/v1/quotes/BTC-USDT', { token: sandbox })).status === 200 ? true : undefined), 15_000);
    // Only binance holds USDT: a buy can only route there.
    await write(sandbox, { replace: true, positions: [{ venue: 'binance', kind: 'crypto', symbol: 'USDT', qty: 100_000 }] });
    const placed = await call<ApiOrder>(base, 'POST', '/v1/orders', { token: sandbox, body: { client_order_id: 'sbx-endpoints-buy', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 100_000, order_type: 'market' } });
    assert.equal(placed.status, 201, JSON.stringify(placed.body));
    const order = await until('buy terminal', async () => {
      const o = (await call<ApiOrder>(base, 'GET', `/v1/orders/${placed.body.node_order_id}`, { token: sandbox })).body;
      return TERMINAL.has(o.status) ? o : undefined;
    });
    assert.equal(order.status, 'COMPLETED', JSON.stringify(order));
    assert.deepEqual([...new Set(order.children.map((c) => c.venue))], ['binance']);
    const after = (await positions(sandbox)).positions;
    assert.equal(after.find((p) => p.instrument.symbol === 'BTC' && p.venue === 'binance')?.qty_1e8, 100_000);
    assert.ok(after.find((p) => p.instrument.symbol === 'USDT')!.qty_1e8 < 100_000 * 1e8, 'the cost came off the written balance');

    // A GTC bid far below the market rests; the reset cancels it before the balances go.
    await reset(sandbox);
    const q = await call<{ nbbo: { bid: number } }>(base, 'GET', '/v1/quotes/BTC-USDT', { token: sandbox });
    const resting = await call<ApiOrder>(base, 'POST', '/v1/orders', {
      token: sandbox,
      body: { client_order_id: 'sbx-endpoints-gtc', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 100_000, order_type: 'limit', limit_price_1e9: Math.floor(q.body.nbbo.bid / 2) * 1e9, time_in_force: 'gtc' },
    });
    assert.equal(resting.status, 201, JSON.stringify(resting.body));
    await until('resting', async () => ((await call<ApiOrder>(base, 'GET', `/v1/orders/${resting.body.node_order_id}`, { token: sandbox })).body.status === 'ACTIVE' ? true : undefined));
    const res = await reset(sandbox);
    assert.equal(res.body.orders_ended, 1);
    assert.equal((await call<ApiOrder>(base, 'GET', `/v1/orders/${resting.body.node_order_id}`, { token: sandbox })).body.status, 'CANCELLED');
    const rows = (await positions(sandbox)).positions;
    assert.ok(rows.every((p) => p.locked_qty_1e8 === 0 && p.qty_1e8 === 1e17), 'no reservation outlives the reset');
  });

  it('marks: crypto rows at the consolidated spot mid, perp rows at the perp mid, whatever their entry', async () => {
    const { sandbox: token } = await keysOf('perp-marks');
    assert.equal((await reset(token)).status, 200);
    const res = await write(token, {
      positions: [
        { venue: 'binance', kind: 'crypto', symbol: 'BTC', qty: 1, entry_price_usd: 1 },
        { venue: 'binance', kind: 'perp', symbol: 'BTC-USDT', qty: -1, entry_price_usd: 1 },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const mid = async (type: string) =>
      until(`BTC-USDT ${type} quoted`, async () => {
        const q = await call<{ nbbo: { mid: number } }>(base, 'GET', `/v1/quotes/BTC-USDT?instrument_type=${type}`, { token });
        return q.status === 200 && q.body.nbbo.mid > 0 ? q.body.nbbo.mid : undefined;
      }, 15_000);
    const [spotMid, perpMid] = [await mid('spot'), await mid('perp')];
    // The marks come from the same shared books a moment later: within 1 % of the quotes read.
    const near = (price_1e9: number | undefined, usd: number) => price_1e9 !== undefined && Math.abs(price_1e9 / 1e9 - usd) / usd < 0.01;
    const rows = await until('both rows marked', async () => {
      const all = (await positions(token, '?venues=binance&kinds=crypto,perp')).positions;
      const btc = all.find((p) => p.instrument.kind === 'crypto' && p.instrument.symbol === 'BTC');
      const perp = all.find((p) => p.instrument.kind === 'perp');
      return btc !== undefined && perp !== undefined && near(btc.current_price_usd_1e9, spotMid) && near(perp.current_price_usd_1e9, perpMid) ? { btc, perp } : undefined;
    }, 10_000);
    assert.ok(rows.btc.unrealized_pnl_usd_1e9 > 0, 'a long bought at $1 is up');
    assert.ok(rows.perp.unrealized_pnl_usd_1e9 < 0, 'a short sold at $1 is down');
    assert.equal(rows.perp.current_value_usd_1e9, -rows.perp.current_price_usd_1e9!, '-1 BTC at the mark');
  });

  it('10,000 positions in one call are written, read back whole and survive a restart', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ venue: 'polymarket', kind: 'event_contract', symbol: `7${String(i).padStart(77, '0')}`, qty: (i % 97) + 0.5, entry_price_usd: 0.5 }));
    const body = JSON.stringify({ replace: true, positions: many });
    assert.ok(body.length > 1 << 20, 'more than the 1 MiB other routes take');
    const res = await write(sandbox, { replace: true, positions: many });
    assert.equal(res.status, 200, JSON.stringify(res.body)?.slice(0, 500));
    assert.equal(res.body.written, 10_000);
    const check = async () => {
      const { positions: rows, totals } = await positions(sandbox, '');
      assert.equal(rows.length, 10_000);
      assert.equal(totals.num_positions, 10_000);
      for (let i = 0; i < rows.length; i += 997) {
        const p = rows[i]!;
        assert.equal(p.instrument.token_id, `7${String(i).padStart(77, '0')}`);
        assert.equal(p.qty_1e8, ((i % 97) + 0.5) * 1e8);
      }
    };
    await check();
    await svc.stop(false);
    svc = await startTestService({ dataDir: svc.dataDir });
    base = svc.base;
    await until('service ready again', async () => ((await call(base, 'GET', '/v1/health/ready')).status === 200 ? true : undefined), 30_000);
    await check();
  });
});
