/**
 * The journal's record writer (execution/journal/record-writer.ts) writes plain msgpack that
 * msgpackr reads back as the value written: any JSON-like value (property test), every integer
 * width and sign boundary, UTF-8, long strings and arrays; the same bytes as msgpackr's own
 * plain encoding reads; and a real order record stored through the journal's path into LMDB
 * reads back from the order store unchanged.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Packr, Unpackr } from 'msgpackr';
import { PlainMsgpackWriter } from '../../execution/journal/record-writer.ts';
import { openDatabases } from '../../storage/database.ts';
import { OrderStore } from '../../storage/orders.ts';
import type { OrderRecord } from '../../domain/orders.ts';

const reader = new Unpackr({ mapsAsObjects: true });
/** `__proto__` is no key a record has, and no decoder sets it as one. */
const key = (maxLength: number) => fc.string({ maxLength }).filter((k) => k !== '__proto__');

/** What JSON keeps of a value: keys whose value is undefined are left out, as the writer does. */
function withoutUndefined(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === undefined ? null : withoutUndefined(x)));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = withoutUndefined(x);
    return out;
  }
  return v;
}

describe('PlainMsgpackWriter', () => {
  it('round-trips any JSON-like value through msgpackr (property)', () => {
    const w = new PlainMsgpackWriter();
    fc.assert(
      fc.property(fc.jsonValue().filter((v) => !JSON.stringify(v).includes('"__proto__"')), (value) => {
        assert.deepEqual(reader.unpack(w.encode(value)), withoutUndefined(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('round-trips records with optional and undefined fields, any safe integer and any double (property)', () => {
    const w = new PlainMsgpackWriter();
    const number = fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(0, -0, 127, 128, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, -32, -33, -(2 ** 31), -(2 ** 31) - 1, 2 ** 53 - 1));
    const leaf = fc.oneof(number, fc.string({ unit: 'binary', maxLength: 300 }), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const record = fc.dictionary(key(40), fc.oneof(leaf, fc.array(leaf, { maxLength: 20 }), fc.dictionary(key(10), leaf)));
    fc.assert(
      fc.property(record, (value) => {
        const back = reader.unpack(w.encode(value)) as unknown;
        // Lone surrogates do not survive UTF-8 (they become U+FFFD): compare what UTF-8 carries.
        const utf8 = (x: unknown): unknown => JSON.parse(Buffer.from(JSON.stringify(withoutUndefined(x)) ?? 'null', 'utf8').toString('utf8'), (_k, v: unknown) => (Object.is(v, -0) ? 0 : v));
        assert.deepEqual(utf8(back), utf8(value));
      }),
      { numRuns: 1_000 },
    );
  });

  it('reads back as msgpackr plain encoding does, for strings past every header width', () => {
    const w = new PlainMsgpackWriter();
    const packr = new Packr({ useRecords: false, moreTypes: false });
    for (const n of [0, 31, 32, 63, 64, 85, 86, 255, 256, 21_845, 21_846, 70_000]) {
      for (const s of ['a'.repeat(n), 'é'.repeat(n), '€'.repeat(n)]) {
        const value = { s, list: new Array(n % 40).fill(s.slice(0, 3)) };
        assert.deepEqual(reader.unpack(w.encode(value)), reader.unpack(packr.pack(value)), `${n} of ${s.slice(0, 1)}`);
      }
    }
  });

  it('reads back through a database that has shared structures: no integer is taken for a record id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'record-writer-'));
    const db = openDatabases(dir);
    try {
      const store = new OrderStore(db);
      // A structured write, as closeAfterRestart's putOrder makes after a restart, creates the
      // database's shared structures; msgpackr's record ids are the bytes 0x40-0x7f.
      store.putOrder({ node_order_id: 'ord_structured', client_id: 'c', mode: 'live', status: 'RUNNING' } as unknown as OrderRecord);
      await store.durable();
      const values = Array.from({ length: 300 }, (_, i) => i - 40);
      for (const v of values) store.putOrderEncoded('c', 'live', `ord_${String(v + 100).padStart(4, '0')}`, 'RUNNING', null, new PlainMsgpackWriter().encode({ v, list: [v, { v }] }));
      await store.durable();
      store.refresh();
      for (const v of values) assert.deepEqual(store.getOrder('c', 'live', `ord_${String(v + 100).padStart(4, '0')}`), { v, list: [v, { v }] }, String(v));
    } finally {
      await db.root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what plain msgpack records never hold', () => {
    const w = new PlainMsgpackWriter();
    assert.throws(() => w.encode({ qty: 1n }), TypeError);
    assert.throws(() => w.encode({ f: () => 1 }), TypeError);
  });

  it('an order stored through the journal path reads back from the order store unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'record-writer-'));
    const db = openDatabases(dir);
    try {
      const store = new OrderStore(db);
      const order = {
        node_order_id: 'ord_0000000010000abc', client_id: 'cli_1', client_order_id: 'c-1', idempotency_key: null, mode: 'live', is_sandbox: false,
        side: 'buy', symbol: 'BTC-USDT', instrument_type: 'spot', qty_1e8: 300_000_000, filled_qty_1e8: 299_999_921, order_type: 'market', time_in_force: 'ioc',
        limit_price_1e9: null, status: 'COMPLETED', execution_type: 'graph', venue_state: 'filled', reconciliation_state: 'in_sync', engine_phase: 'done',
        created_unix_ns: 1_795_000_000_123_456_800, updated_unix_ns: 1_795_000_000_223_456_800, constraints: { horizon_ms: 60_000, urgency: 'high' },
        expected_fee_1e9: 291_000_000_000, expected_fee_bps: 10, failure_class: 'lot_rounding', failure_reason: 'reste: 79 — lot ≥ 1e-5', first_fill_ts_ns: 1_795_000_000_200_000_000,
        graph_id: 'grf_0000000010000abc', graph_name: null, home_region: 'local', node_id: 'node-1', placed_price_1e9: null, pool_id: null,
        tca: { achieved_vwap_1e9: 97_001_000_000_000, fill_ratio: 0.99999, savings_usd_1e9: -0.5, venues: [{ venue: 'okx', share: 1 }] }, time_to_first_fill_ms: 2,
        lineage_deployment_id: null, routing_version: 2, forced_venue: null, arrival_mid_1e9: 97_000_000_000_000,
        children: [{ child_id: 'ord_0000000010000abc-0', venue: 'okx', edge_id: 'okx-spot', qty_1e8: 299_999_921, limit_price_1e9: 97_100_000_000_000, filled_qty_1e8: 299_999_921, time_in_force: 'ioc', status: 'filled', reason: null, fee_1e9: 291_000_000_000, venue_reported_cum_fee_1e9: 291_000_000_000 }],
        fill_ids: [7_350_000_000_000_001], request_hash: 'ab'.repeat(32), lot_remainder_1e8: 79, stored_status: 'COMPLETED',
      } satisfies OrderRecord;
      store.putOrderEncoded(order.client_id, 'live', order.node_order_id, 'COMPLETED', null, new PlainMsgpackWriter().encode(order));
      await store.durable();
      assert.deepEqual(store.getOrder(order.client_id, 'live', order.node_order_id), order);
      assert.deepEqual(store.listOrders(order.client_id, 'live', { limit: 5 }).orders, [order]);
    } finally {
      await db.root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
