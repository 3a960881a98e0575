/**
 * Fixed layouts of a child order and its execution report (engine/wire.ts has the field
 * encodings; engine/message-layout.ts the frame around them: u32 correlation | str key | body).
 *
 *   Execute (frame 100) and Place (frame 102): the same fields; Execute's limit may be absent
 *   +------+--------+-----+----------+-----+--------+
 *   | word | str    | str | u8 side  | f64 | f64(?) |
 *   |symbol|child_id|owner| 0 buy 1  | qty | limit  |
 *   +------+--------+-----+----------+-----+--------+
 *   both then: | u8 sandbox (0 live, 1 sandbox) | if 1, the profile:                               |
 *              | f64 seed | f64 latency_ms | f64 reject | f64 partial | f64 disconnect | u8 race  |
 *
 *   ChildExecution (answer 101; ChildPlacement, answer 103, appends f64 resting_qty_1e8)
 *   +-------+------+-------+--------+-------+-----+-----+-----+-------+----------------------------+
 *   | u8    | word | word  | str    | str?  | f64 | f64 | f64 | u16 n | n x fill                   |
 *   | ok    | venue|edge_id|child_id| reason|taker|maker| ack |       |                            |
 *   +-------+------+-------+--------+-------+-----+-----+-----+-------+----------------------------+
 *   fill: f64 price_1e9 | f64 qty_1e8 | str trade_id | f64 ts_ns | f64 fee_1e9 | f64 cum_fee_1e9 |
 *         u8 flags (bit 0: commission in another asset, then str asset | f64 qty_1e8; bit 1: the
 *         venue said maker or taker, bit 2 which: maker; bit 3: executed in another region, then
 *         str region)
 *
 * Venues, edge ids and symbols are lexicon words (two bytes); ids are spelled out.
 */
import { EDGES, symbolsOf } from '../../domain/venues.ts';
import { VENUES } from '../../domain/market.ts';
import type { AnswerLayout, MessageLayout } from '../../engine/message-layout.ts';
import { Lexicon, type WireReader, type WireWriter } from '../../engine/wire.ts';
import type { ChildExecution, ChildPlacement, EdgeMessage, SandboxProfile } from './messages.ts';

/** The strings that repeat on the order path, the same on every thread (built from static reference data). */
export const LEXICON = new Lexicon([...VENUES, ...EDGES.map((e) => e.edge_id), ...symbolsOf('spot'), ...symbolsOf('perp')]);

/** Frame types of the edge's layouts (the router's are 110 and up: execution/router/wire.ts). */
export const EdgeFrame = {
  EXECUTE: 100,
  PLACE: 102,
} as const;

type Fill = ChildExecution['fills'][number];

const FILL_COMMISSION = 1;
const FILL_SIDE_KNOWN = 2;
const FILL_MAKER = 4;
const FILL_REGION = 8;

export function writeFill(f: Fill, w: WireWriter): void {
  w.f64(f.price_1e9).f64(f.qty_1e8).str(f.trade_id).f64(f.ts_ns).f64(f.fee_1e9).f64(f.cum_fee_1e9);
  const commission = f.commission;
  const flags = (commission === undefined ? 0 : FILL_COMMISSION) | (f.is_maker === undefined ? 0 : FILL_SIDE_KNOWN | (f.is_maker ? FILL_MAKER : 0)) | (f.region === undefined ? 0 : FILL_REGION);
  w.u8(flags);
  if (commission !== undefined) w.str(commission.asset).f64(commission.qty_1e8);
  if (f.region !== undefined) w.str(f.region);
}

export function readFill(r: WireReader): Fill {
  const fill: Fill = { price_1e9: r.f64(), qty_1e8: r.f64(), trade_id: r.str(), ts_ns: r.f64(), fee_1e9: r.f64(), cum_fee_1e9: r.f64() };
  const flags = r.u8();
  if ((flags & FILL_COMMISSION) !== 0) fill.commission = { asset: r.str(), qty_1e8: r.f64() };
  if ((flags & FILL_SIDE_KNOWN) !== 0) fill.is_maker = (flags & FILL_MAKER) !== 0;
  if ((flags & FILL_REGION) !== 0) fill.region = r.str();
  return fill;
}

export function writeSide(side: 'buy' | 'sell', w: WireWriter): void {
  w.u8(side === 'buy' ? 0 : 1);
}

export function readSide(r: WireReader): 'buy' | 'sell' {
  const code = r.u8();
  if (code > 1) throw new RangeError(`side code ${code}`);
  return code === 0 ? 'buy' : 'sell';
}

function writeExecution(e: ChildExecution, w: WireWriter): void {
  w.u8(e.ok ? 1 : 0).word(e.venue, LEXICON).word(e.edge_id, LEXICON).str(e.child_id).optStr(e.reason);
  w.f64(e.taker_bps).f64(e.maker_bps).f64(e.ack_ns).u16(e.fills.length);
  for (const f of e.fills) writeFill(f, w);
}

function readExecution(r: WireReader): ChildExecution {
  const ok = r.u8() === 1;
  const venue = r.word(LEXICON);
  const edge_id = r.word(LEXICON);
  const child_id = r.str();
  const reason = r.optStr();
  const taker_bps = r.f64();
  const maker_bps = r.f64();
  const ack_ns = r.f64();
  const fills: Fill[] = new Array<Fill>(r.u16());
  for (let i = 0; i < fills.length; i++) fills[i] = readFill(r);
  return { child_id, venue, edge_id, ok, reason, fills, taker_bps, maker_bps, ack_ns };
}

export const childExecutionLayout: AnswerLayout<ChildExecution> = { encode: writeExecution, decode: readExecution };

export const childPlacementLayout: AnswerLayout<ChildPlacement> = {
  encode(p, w) {
    writeExecution(p, w);
    w.f64(p.resting_qty_1e8);
  },
  decode(r) {
    const execution = readExecution(r);
    return { ...execution, resting_qty_1e8: r.f64() };
  },
};

function writeSandbox(p: SandboxProfile | null | undefined, w: WireWriter): void {
  if (p === null || p === undefined) {
    w.u8(0);
    return;
  }
  w.u8(1).f64(p.seed).f64(p.latency_ms).f64(p.reject_rate).f64(p.partial_fill_rate).f64(p.disconnect_rate).u8(p.cancel_race ? 1 : 0);
}

function readSandbox(r: WireReader): SandboxProfile | null {
  if (r.u8() === 0) return null;
  return { seed: r.f64(), latency_ms: r.f64(), reject_rate: r.f64(), partial_fill_rate: r.f64(), disconnect_rate: r.f64(), cancel_race: r.u8() === 1 };
}

type Execute = Extract<EdgeMessage, { t: 'Execute' }>;
type Place = Extract<EdgeMessage, { t: 'Place' }>;

export const executeLayout: MessageLayout<Execute> = {
  kind: 'edge',
  t: 'Execute',
  type: EdgeFrame.EXECUTE,
  encode(m, w) {
    w.word(m.symbol, LEXICON).str(m.child_id).str(m.owner);
    writeSide(m.side, w);
    w.f64(m.qty_1e8).optF64(m.limit_price_1e9);
    writeSandbox(m.sandbox, w);
  },
  decode(r) {
    return { t: 'Execute', symbol: r.word(LEXICON), child_id: r.str(), owner: r.str(), side: readSide(r), qty_1e8: r.f64(), limit_price_1e9: r.optF64(), sandbox: readSandbox(r) };
  },
  answer: childExecutionLayout as AnswerLayout,
};

export const placeLayout: MessageLayout<Place> = {
  kind: 'edge',
  t: 'Place',
  type: EdgeFrame.PLACE,
  encode(m, w) {
    w.word(m.symbol, LEXICON).str(m.child_id).str(m.owner);
    writeSide(m.side, w);
    w.f64(m.qty_1e8).f64(m.limit_price_1e9);
    writeSandbox(m.sandbox, w);
  },
  decode(r) {
    return { t: 'Place', symbol: r.word(LEXICON), child_id: r.str(), owner: r.str(), side: readSide(r), qty_1e8: r.f64(), limit_price_1e9: r.f64(), sandbox: readSandbox(r) };
  },
  answer: childPlacementLayout as AnswerLayout,
};

/** The edge's layouts, for the registry. */
export const edgeLayouts = [executeLayout, placeLayout];
