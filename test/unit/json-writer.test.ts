/**
 * The journal's JSON writer (execution/journal/json-writer.ts) writes exactly what
 * JSON.stringify writes: any JSON value, records with undefined fields, any double, every
 * safe-integer boundary, escapes, non-ASCII and lone surrogates (property tests); and an order's
 * 201 body written from the record (internal fields omitted, `fills: null` appended) is the
 * same text as JSON.stringify(orderView(order)).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { INTERNAL_ORDER_FIELDS, orderView, type OrderRecord } from '../../domain/orders.ts';
import { JsonWriter } from '../../execution/journal/json-writer.ts';

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('JsonWriter', () => {
  it('writes what JSON.stringify writes for any JSON value (property)', () => {
    const w = new JsonWriter();
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.equal(text(w.encode(value)), JSON.stringify(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('and for records with undefined fields, any double, any string (property)', () => {
    const w = new JsonWriter();
    const number = fc.oneof(fc.double(), fc.maxSafeInteger(), fc.integer(), fc.constantFrom(0, -0, 9, 10, -10, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1_795_000_000_123_456_789, 1e21, 1e-7, NaN, Infinity));
    const string = fc.oneof(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom('"', '\\', '\n\t\u0000\u001f\u007f', '\ud800', 'ok'));
    const leaf = fc.oneof(number, string, fc.boolean(), fc.constant(null), fc.constant(undefined));
    const record = fc.dictionary(fc.string({ unit: 'binary', maxLength: 20 }), fc.oneof(leaf, fc.array(leaf, { maxLength: 10 }), fc.dictionary(fc.string({ maxLength: 8 }), leaf)));
    fc.assert(
      fc.property(record, (value) => {
        assert.equal(text(w.encode(value)), JSON.stringify(value));
      }),
      { numRuns: 1_500 },
    );
  });

  it('omits and appends top-level entries: an order 201 body is JSON.stringify(orderView(order))', () => {
    const w = new JsonWriter();
    const order = {
      node_order_id: 'ord_0000000010000abc', client_id: 'cli_1', client_order_id: 'c-"1"', idempotency_key: 'key ü', mode: 'live', is_sandbox: false,
      side: 'buy', symbol: 'BTC-USDT', instrument_type: 'spot', qty_1e8: 300_000_000, filled_qty_1e8: 0, order_type: 'market', time_in_force: 'ioc',
      limit_price_1e9: null, status: 'RUNNING', execution_type: 'graph', venue_state: 'sent', reconciliation_state: 'in_sync', engine_phase: 'dispatching',
      created_unix_ns: 1_795_000_000_123_456_800, updated_unix_ns: 1_795_000_000_223_456_800, constraints: { max_price_1e9: 97_000_000_000_000, urgency: 'high' },
      expected_fee_1e9: 291_000_000_000, expected_fee_bps: 10, failure_class: null, failure_reason: null, first_fill_ts_ns: null,
      graph_id: 'grf_0000000010000abc', graph_name: null, home_region: 'local', node_id: 'node-1', placed_price_1e9: null, pool_id: null, tca: null,
      time_to_first_fill_ms: null, lineage_deployment_id: null, routing_version: 3, forced_venue: null, arrival_mid_1e9: 96_999_999_999_999.5,
      children: [{ child_id: 'ord_0000000010000abc-0', venue: 'okx', edge_id: 'okx-spot', qty_1e8: 300_000_000, limit_price_1e9: 97_100_000_000_000, filled_qty_1e8: 0, time_in_force: 'ioc', status: 'sent', reason: null, fee_1e9: 0, venue_reported_cum_fee_1e9: 0 }],
      fill_ids: [], request_hash: 'ab'.repeat(32), lot_remainder_1e8: 79, stored_status: 'RUNNING',
    } satisfies OrderRecord;
    assert.equal(text(w.encode(order, INTERNAL_ORDER_FIELDS, { fills: null })), JSON.stringify(orderView(order)));
    assert.ok(!text(w.encode(order, INTERNAL_ORDER_FIELDS, { fills: null })).includes('request_hash'));
  });

  it('refuses what JSON cannot write', () => {
    const w = new JsonWriter();
    assert.throws(() => w.encode({ qty: 1n }), TypeError);
  });
});
