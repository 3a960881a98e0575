/**
 * The order path's binary layouts (actors/edge/wire.ts, execution/router/wire.ts) round-trip
 * every field: the order request with every combination of optional, null and set fields, child
 * orders, execution reports with any number of fills, maker fills; lexicon words and strings
 * the lexicon does not hold; ASCII and UTF-8. And two endpoints joined by real rings carry them
 * as those frame types, the answer included.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { childExecutionLayout, childPlacementLayout, EdgeFrame, executeLayout, LEXICON, placeLayout } from '../../actors/edge/wire.ts';
import type { ChildExecution, ChildPlacement, EdgeMessage, MakerFill } from '../../actors/edge/messages.ts';
import { VENUES } from '../../domain/market.ts';
import type { Actor } from '../../engine/actor.ts';
import { Endpoint } from '../../engine/endpoint.ts';
import type { AnswerLayout, MessageLayout } from '../../engine/message-layout.ts';
import { Mailbox, type SourcedFrameHandler } from '../../engine/ring/mailbox.ts';
import { createControl, createRing } from '../../engine/ring/spsc-ring.ts';
import { TimerQueue } from '../../engine/timers.ts';
import { WireReader, WireWriter } from '../../engine/wire.ts';
import { makerFillLayout, submitLayout } from '../../execution/router/wire.ts';
import { layouts } from '../../registry.ts';
import { createLogger } from '../../engine/log.ts';

const text = fc.string({ unit: 'grapheme', maxLength: 120 });
const id = fc.oneof(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 64 }), text);
/** Known words (lexicon indices) and strings it does not hold (spelled out). */
const word = fc.oneof(fc.constantFrom(...VENUES, 'BTC-USDT', 'ETH-USD', 'venue-edge-binance-perp'), fc.string({ minLength: 1, maxLength: 40 }));
const units = fc.maxSafeNat();
const side = fc.constantFrom('buy' as const, 'sell' as const);
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
/** Plain objects, as JSON.parse makes them (fast-check's default has a null prototype). */
const rec = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }, requiredKeys?: (keyof T)[]) =>
  fc.record(model, requiredKeys === undefined ? { noNullPrototype: true } : { requiredKeys, noNullPrototype: true });

const request = rec(
  {
    client_order_id: id,
    symbol: word,
    instrument: rec({ symbol: word, type: fc.constantFrom('spot' as const, 'perp' as const) }, ['symbol']),
    side,
    qty_1e8: units,
    order_type: fc.constantFrom('market' as const, 'limit' as const),
    limit_price_1e9: units,
    time_in_force: fc.constantFrom('ioc' as const, 'gtc' as const, 'fok' as const),
    venue: word,
    constraints: nullable(
      rec({ horizon_ms: nullable(units), max_price_1e9: nullable(units), participation_limit_bps: nullable(fc.integer({ min: 0, max: 10_000 })), urgency: nullable(fc.constantFrom('low' as const, 'medium' as const, 'high' as const)) }, []),
    ),
    start_armed: fc.boolean(),
  },
  ['client_order_id', 'side', 'qty_1e8', 'order_type'],
);

const submit = rec(
  { t: fc.constant('Submit' as const), request, idempotency_key: nullable(id), as: fc.constant('json' as const) },
  ['t', 'request', 'idempotency_key'],
);

// A live venue's commission in another asset, its word on maker or taker, and the region that executed it are optional: present and absent all round-trip.
const fill = rec(
  { price_1e9: units, qty_1e8: units, trade_id: id, ts_ns: fc.double({ noNaN: true }), fee_1e9: fc.integer(), cum_fee_1e9: fc.integer(), commission: rec({ asset: id, qty_1e8: units }), is_maker: fc.boolean(), region: id },
  ['price_1e9', 'qty_1e8', 'trade_id', 'ts_ns', 'fee_1e9', 'cum_fee_1e9'],
);

const execution: fc.Arbitrary<ChildExecution> = rec({
  child_id: id,
  venue: word,
  edge_id: word,
  ok: fc.boolean(),
  reason: nullable(text),
  fills: fc.array(fill, { maxLength: 30 }),
  taker_bps: fc.double({ noNaN: true }),
  maker_bps: fc.double({ noNaN: true }),
  ack_ns: fc.double({ noNaN: true }),
});
const placement: fc.Arbitrary<ChildPlacement> = fc.tuple(execution, units).map(([e, resting]) => ({ ...e, resting_qty_1e8: resting }));

// A sandbox child carries its client's profile; a live one says so with null.
const rate = fc.double({ min: 0, max: 1, noNaN: true });
const sandbox = nullable(rec({ seed: fc.integer(), latency_ms: fc.nat(10_000), reject_rate: rate, partial_fill_rate: rate, disconnect_rate: rate, cancel_race: fc.boolean() }));
const execute = rec({ t: fc.constant('Execute' as const), owner: id, child_id: id, symbol: word, side, qty_1e8: units, limit_price_1e9: nullable(units), sandbox });
const place = rec({ t: fc.constant('Place' as const), owner: id, child_id: id, symbol: word, side, qty_1e8: units, limit_price_1e9: units, sandbox });
const makerFill: fc.Arbitrary<MakerFill> = rec({ t: fc.constant('MakerFill' as const), child_id: id, venue: word, edge_id: word, fill, left_qty_1e8: units, maker_bps: fc.double({ noNaN: true }) });

/** Encodes, copies into shared memory at an odd offset (as a ring slot is), decodes every byte. */
function roundTrip<T>(encode: (v: T, w: WireWriter) => void, decode: (r: WireReader) => T, value: T): T {
  const w = new WireWriter();
  encode(value, w);
  const bytes = w.bytes();
  const slot = new Uint8Array(new SharedArrayBuffer(bytes.length + 13));
  slot.set(bytes, 5);
  const r = new WireReader().reset(slot, 5, bytes.length);
  const decoded = decode(r);
  assert.equal(r.remaining, 0, 'every byte read');
  return decoded;
}

const viaLayout = <M extends { t: string }>(layout: MessageLayout<M>, m: M) => roundTrip((v, w) => layout.encode(v, w), (r) => layout.decode(r), m);
const viaAnswer = <A>(layout: AnswerLayout, a: A) => roundTrip((v, w) => layout.encode(v, w), (r) => layout.decode(r) as A, a);

describe('order path layouts: every field round-trips (property)', () => {
  it('Submit: the order request exactly as validated (absent stays absent, null stays null)', () => {
    fc.assert(fc.property(submit, (m) => assert.deepStrictEqual(viaLayout(submitLayout, m), m)), { numRuns: 2_000 });
  });

  it('Execute and Place: child orders', () => {
    fc.assert(fc.property(execute, (m) => assert.deepStrictEqual(viaLayout(executeLayout, m), m)), { numRuns: 1_000 });
    fc.assert(fc.property(place, (m) => assert.deepStrictEqual(viaLayout(placeLayout, m), m)), { numRuns: 1_000 });
  });

  it('ChildExecution and ChildPlacement: execution reports with their fills', () => {
    fc.assert(fc.property(execution, (a) => assert.deepStrictEqual(viaAnswer(childExecutionLayout, a), a)), { numRuns: 1_000 });
    fc.assert(fc.property(placement, (a) => assert.deepStrictEqual(viaAnswer(childPlacementLayout, a), a)), { numRuns: 1_000 });
  });

  it('MakerFill', () => {
    fc.assert(fc.property(makerFill, (m) => assert.deepStrictEqual(viaLayout(makerFillLayout, m), m)), { numRuns: 1_000 });
  });

  it('repeated strings are two-byte lexicon words; others are spelled out', () => {
    const size = (symbol: string) => {
      const w = new WireWriter();
      executeLayout.encode({ t: 'Execute', owner: 'r', child_id: 'c', symbol, side: 'buy', qty_1e8: 1, limit_price_1e9: null }, w);
      return w.length;
    };
    assert.ok(LEXICON.indexOf('BTC-USDT') > 0 && LEXICON.indexOf('binance') > 0 && LEXICON.indexOf('venue-edge-okx') > 0);
    // symbol word | child id | owner | side | qty | limit | live (no sandbox profile)
    assert.equal(size('BTC-USDT'), 2 + 3 + 3 + 1 + 8 + 8 + 1);
    assert.equal(size('NOT-LISTED'), 2 + 2 + 10 + 3 + 3 + 1 + 8 + 8 + 1);
  });

  it('a truncated frame is refused, never read past its end', () => {
    const w = new WireWriter();
    submitLayout.encode({ t: 'Submit', request: { client_order_id: 'a', side: 'buy', qty_1e8: 1, order_type: 'market', symbol: 'BTC-USDT' }, idempotency_key: 'k' }, w);
    const bytes = w.bytes().slice();
    for (let cut = 0; cut < bytes.length; cut++) {
      assert.throws(() => submitLayout.decode(new WireReader().reset(bytes, 0, cut)), RangeError);
    }
  });
});

describe('order path layouts on real rings', () => {
  it('an ask of Execute crosses as frame 100 and its ChildExecution comes back as frame 101', () => {
    const log = createLogger('silent');
    const controls = [createControl(), createControl()];
    const rings = [
      [createRing(1 << 16), createRing(1 << 16)],
      [createRing(1 << 16), createRing(1 << 16)],
    ];
    const answer: ChildExecution = {
      child_id: 'o-1.1',
      venue: 'binance',
      edge_id: 'venue-edge-binance',
      ok: true,
      reason: null,
      fills: [{ price_1e9: 95_000e9, qty_1e8: 1_000, trade_id: 't-1', ts_ns: 1.7e18, fee_1e9: 9_500, cum_fee_1e9: 9_500 }],
      taker_bps: 10,
      maker_bps: 10,
      ack_ns: 1.7e18,
    };
    const received: EdgeMessage[] = [];
    const edge: Actor<EdgeMessage> = {
      onMessage(m) {
        received.push(m);
        return answer;
      },
    };
    // Every frame type either endpoint reads, tapped where the endpoint registers its handler.
    const types: number[] = [];
    const register = Mailbox.prototype.onFrame;
    Mailbox.prototype.onFrame = function (this: Mailbox, handler: SourcedFrameHandler) {
      register.call(this, (source, type, ...rest) => {
        types.push(type);
        handler(source, type, ...rest);
      });
    };
    let endpoints: Endpoint[];
    try {
      endpoints = [0, 1].map(
        (thread) => new Endpoint({ thread, workers: 1, control: controls[thread]!, scheduler: new TimerQueue(), log, layouts, registry: thread === 1 ? { edge: () => edge } : {} }),
      );
    } finally {
      Mailbox.prototype.onFrame = register;
    }
    for (const [src, e] of endpoints.entries()) {
      for (const dst of [0, 1]) {
        e.attachOutbound(dst, rings[src]![dst]!, controls[dst]!);
        e.attachInbound(dst, rings[dst]![src]!);
      }
    }
    const [gateway, worker] = endpoints as [Endpoint, Endpoint];
    const execute: EdgeMessage = { t: 'Execute', owner: 'router:live|c1', child_id: 'o-1.1', symbol: 'BTC-USDT', side: 'buy', qty_1e8: 1_000, limit_price_1e9: 96_000e9 };
    let settled: unknown;
    void gateway.ask('edge:venue-edge-binance', execute).then((v) => (settled = v));
    worker.poll(16);
    gateway.poll(16);
    return Promise.resolve().then(() => {
      // A live child decodes with its sandbox profile null.
      assert.deepStrictEqual(received, [{ ...execute, sandbox: null }]);
      assert.deepStrictEqual(settled, answer);
      assert.deepEqual(types, [EdgeFrame.EXECUTE, EdgeFrame.EXECUTE + 1]);
    });
  });

  it('the registry lists the order path layouts once each', () => {
    assert.deepEqual(
      layouts.map((l) => `${l.kind}/${l.t}`),
      ['edge/Execute', 'edge/Place', 'router/Submit', 'router/MakerFill'],
    );
  });
});
