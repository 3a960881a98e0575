/**
 * The journal's record encoders on a router's worker, per market order:
 *
 *   terminal OrderRecord (3 legs, TCA) --PlainMsgpackWriter-->  plain msgpack   vs msgpackr (useRecords: false)
 *   RUNNING OrderRecord  --JsonWriter (omit internal, fills: null)--> 201 bytes  vs Buffer.from(JSON.stringify(orderView(order)))
 *
 * Same-run baselines: the encoders these replaced, on the same records, alternating in one
 * tinybench run. Each encoder's output is checked against its baseline's first (the same
 * decoded value; the same JSON text).
 */
import assert from 'node:assert/strict';
import { Packr, unpack } from 'msgpackr';
import { Bench } from 'tinybench';
import { INTERNAL_ORDER_FIELDS, orderView, type OrderRecord } from '../domain/orders.ts';
import { JsonWriter } from '../execution/journal/json-writer.ts';
import { PlainMsgpackWriter } from '../execution/journal/record-writer.ts';
import { runIfMain, type BenchResult } from './lib/results.ts';

const TIME_MS = 1_000;

function child(venue: string, i: number): OrderRecord['children'][number] {
  return { child_id: `ord_0mbx1abc0001xyz-${i}`, venue, edge_id: `${venue}-spot`, qty_1e8: 33_333, limit_price_1e9: 97_000_123_456_789, filled_qty_1e8: 33_333, time_in_force: 'ioc', status: 'filled', reason: null, fee_1e9: 12_345_678, venue_reported_cum_fee_1e9: 12_345_678 };
}

/** A market buy over three venues as the router journals it when it completes. */
const TERMINAL: OrderRecord = {
  node_order_id: 'ord_0mbx1abc0001xyz', client_id: 'cli_8f3a9d2b', client_order_id: 'bench-123456', idempotency_key: null, mode: 'live', is_sandbox: false,
  side: 'buy', symbol: 'BTC-USDT', instrument_type: 'spot', qty_1e8: 100_000, filled_qty_1e8: 100_000, order_type: 'market', time_in_force: 'ioc', limit_price_1e9: null,
  status: 'COMPLETED', execution_type: 'graph', venue_state: 'filled', reconciliation_state: 'in_sync', engine_phase: 'done',
  created_unix_ns: 1_795_000_000_123_456_800, updated_unix_ns: 1_795_000_000_223_456_800, constraints: null, expected_fee_1e9: 97_000_000, expected_fee_bps: 10,
  failure_class: null, failure_reason: null, first_fill_ts_ns: 1_795_000_000_200_000_000, graph_id: 'grf_0mbx1abc0001xyz', graph_name: null, home_region: 'local',
  node_id: 'node-1', placed_price_1e9: null, pool_id: null,
  tca: {
    achieved_vwap_1e9: 97_001_000_000_000, arrival_mid_1e9: 97_000_000_000_000, filled_qty_1e8: 100_000, fill_ratio: 1, implementation_shortfall_bps: 0.103,
    spread_cost_bps: 0.05, impact_bps: 0.02, fee_bps: 10, total_cost_bps: 10.1, fees_usd_1e9: 97_000_000, notional_usd_1e9: 97_001_000_000,
    best_single_venue: { venue: 'binance', avg_price_1e9: 97_002_000_000_000, fee_bps: 10 }, savings_vs_best_single_venue_bps: 0.1, savings_usd_1e9: 1_000_000,
    execution_time_ms: 3, time_to_first_fill_ms: 2,
    venues: [{ venue: 'binance', qty_1e8: 50_000, vwap_1e9: 97_001_000_000_000, fee_1e9: 48_000_000, share: 0.5 }, { venue: 'okx', qty_1e8: 50_000, vwap_1e9: 97_001_000_000_000, fee_1e9: 48_000_000, share: 0.5 }],
  },
  time_to_first_fill_ms: 2, lineage_deployment_id: null, routing_version: 1, forced_venue: null, arrival_mid_1e9: 97_000_000_000_000,
  children: [child('binance', 0), child('okx', 1), child('bybit', 2)], fill_ids: [7_350_000_000_000_001, 7_350_000_000_000_002, 7_350_000_000_000_003],
  request_hash: 'a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90', lot_remainder_1e8: 0, stored_status: 'RUNNING',
};

/** The same order when its 201 leaves: dispatched, nothing filled, no TCA. */
const RUNNING: OrderRecord = { ...TERMINAL, status: 'RUNNING', venue_state: 'sent', engine_phase: 'dispatching', filled_qty_1e8: 0, tca: null, first_fill_ts_ns: null, time_to_first_fill_ms: null, fill_ids: [], children: TERMINAL.children.map((c) => ({ ...c, status: 'sent', filled_qty_1e8: 0, fee_1e9: 0, venue_reported_cum_fee_1e9: 0 })) };
const NO_FILLS = { fills: null };

export async function run(): Promise<BenchResult> {
  const packr = new Packr({ useRecords: false, moreTypes: false });
  const records = new PlainMsgpackWriter();
  const json = new JsonWriter();
  assert.deepEqual(unpack(records.encode(TERMINAL)), unpack(packr.pack(TERMINAL)));
  assert.equal(Buffer.from(json.encode(RUNNING, INTERNAL_ORDER_FIELDS, NO_FILLS)).toString('utf8'), JSON.stringify(orderView(RUNNING)));

  const bench = new Bench({ time: TIME_MS });
  bench
    .add('msgpackr', () => void packr.pack(TERMINAL))
    .add('PlainMsgpackWriter', () => void records.encode(TERMINAL))
    .add('JSON.stringify(orderView)', () => void Buffer.from(JSON.stringify(orderView(RUNNING)), 'utf8'))
    .add('JsonWriter', () => void json.encode(RUNNING, INTERNAL_ORDER_FIELDS, NO_FILLS));
  await bench.run();
  const us = (name: string) => {
    const task = bench.getTask(name)!;
    return Number(((task.result as { latency: { mean: number } }).latency.mean * 1000).toFixed(2));
  };
  const msgpackr = us('msgpackr');
  const writer = us('PlainMsgpackWriter');
  const stringify = us('JSON.stringify(orderView)');
  const jsonWriter = us('JsonWriter');
  return {
    name: 'records',
    description:
      'the journal record encoders on one thread: a terminal 3-leg order record as plain msgpack (PlainMsgpackWriter vs msgpackr useRecords:false) and a RUNNING order\'s 201 body as UTF-8 JSON (JsonWriter vs Buffer.from(JSON.stringify(orderView(order)))), tinybench, mean µs per encode',
    metrics: {
      msgpackr_us: msgpackr,
      plain_msgpack_writer_us: writer,
      stringify_order_view_us: stringify,
      json_writer_us: jsonWriter,
      order_record_bytes: records.encode(TERMINAL).length,
      body_bytes: json.encode(RUNNING, INTERNAL_ORDER_FIELDS, NO_FILLS).length,
    },
    ratios: {
      msgpackr_over_writer: Number((msgpackr / writer).toFixed(2)),
      stringify_over_json_writer: Number((stringify / jsonWriter).toFixed(2)),
    },
    targets: {},
  };
}

await runIfMain(import.meta.url, run);
