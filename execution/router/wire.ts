/**
 * Fixed layouts of what a router is sent on the order path (engine/wire.ts has the field
 * encodings; engine/message-layout.ts the frame around them: u32 correlation | str key | body).
 *
 *   Submit (frame 110): the order request of `POST /v1/orders`, exactly as validated
 *   +---------+---------+------+------+-----+------+-----+--------+-----------------+--------------------+
 *   | u8      | u8      | u8   | u8   | u8  | u8   | f64 | str    | optional fields | str?               |
 *   | present | flags   | side | type | tif | kind | qty | client | in flag order   | idempotency_key    |
 *   |         |         |      |      |     |      |     |order_id|                 |                    |
 *   +---------+---------+------+------+-----+------+-----+--------+-----------------+--------------------+
 *   present: bit 0 symbol (word), 1 instrument (word symbol), 2 instrument.type (the kind byte),
 *            3 limit_price_1e9 (f64), 4 time_in_force (the tif byte), 5 venue (word),
 *            6 constraints (null or an object: flags bit 1), 7 start_armed (flags bit 0)
 *   flags:   bit 0 start_armed, 1 constraints null, 2 answer as JSON (`as: 'json'`),
 *            3 lineage_deployment_id (a str after the idempotency key)
 *   constraints object: u8 states, 2 bits per field (0 absent, 1 null, 2 set) for horizon_ms,
 *            max_price_1e9, participation_limit_bps, urgency; then the set ones in that order
 *            (f64, f64, f64, u8 low/medium/high)
 *
 *   MakerFill (frame 112, a tell from an edge)
 *   +----------+------+---------+-----------------+-------------------+----------------+
 *   | str      | word | word    | fill            | f64               | f64            |
 *   | child_id | venue| edge_id | (actors/edge/   | left_qty_1e8      | maker_bps      |
 *   |          |      |         |  wire.ts)       |                   |                |
 *   +----------+------+---------+-----------------+-------------------+----------------+
 *
 * The decoded request is field for field the validated one (absent stays absent, null stays
 * null): its idempotency fingerprint is a hash of it.
 */
import type { MakerFill } from '../../actors/edge/messages.ts';
import { LEXICON, readFill, readSide, writeFill, writeSide } from '../../actors/edge/wire.ts';
import type { OrderConstraints } from '../../domain/orders.ts';
import type { MessageLayout } from '../../engine/message-layout.ts';
import type { WireReader, WireWriter } from '../../engine/wire.ts';
import type { OrderRequest } from '../types.ts';
import type { RouterMessage } from './messages.ts';

export const RouterFrame = {
  SUBMIT: 110,
  MAKER_FILL: 112,
} as const;

const ORDER_TYPES = ['market', 'limit'] as const;
const TIFS = ['ioc', 'gtc', 'fok'] as const;
const KINDS = ['spot', 'perp'] as const;
const URGENCIES = ['low', 'medium', 'high'] as const;
const CONSTRAINT_NUMBERS = ['horizon_ms', 'max_price_1e9', 'participation_limit_bps'] as const;

const P_SYMBOL = 1;
const P_INSTRUMENT = 2;
const P_KIND = 4;
const P_LIMIT = 8;
const P_TIF = 16;
const P_VENUE = 32;
const P_CONSTRAINTS = 64;
const P_ARMED = 128;
const F_ARMED = 1;
const F_CONSTRAINTS_NULL = 2;
const F_JSON = 4;
const F_LINEAGE = 8;

const ABSENT = 0;
const NULL = 1;
const SET = 2;

function code<T extends string>(values: readonly T[], value: T | undefined): number {
  return value === undefined ? 0 : values.indexOf(value);
}

function named<T extends string>(values: readonly T[], index: number, what: string): T {
  const value = values[index];
  if (value === undefined) throw new RangeError(`${what} code ${index}`);
  return value;
}

function fieldState(value: unknown): number {
  return value === undefined ? ABSENT : value === null ? NULL : SET;
}

function writeConstraints(c: OrderConstraints, w: WireWriter): void {
  let states = 0;
  CONSTRAINT_NUMBERS.forEach((field, i) => (states |= fieldState(c[field]) << (2 * i)));
  states |= fieldState(c.urgency) << 6;
  w.u8(states);
  for (const field of CONSTRAINT_NUMBERS) {
    const v = c[field];
    if (v !== undefined && v !== null) w.f64(v);
  }
  if (c.urgency !== undefined && c.urgency !== null) w.u8(URGENCIES.indexOf(c.urgency));
}

function readConstraints(r: WireReader): OrderConstraints {
  const states = r.u8();
  const c: OrderConstraints = {};
  CONSTRAINT_NUMBERS.forEach((field, i) => {
    const state = (states >> (2 * i)) & 3;
    if (state === NULL) c[field] = null;
    else if (state === SET) c[field] = r.f64();
  });
  const urgency = (states >> 6) & 3;
  if (urgency === NULL) c.urgency = null;
  else if (urgency === SET) c.urgency = named(URGENCIES, r.u8(), 'urgency');
  return c;
}

type Submit = Extract<RouterMessage, { t: 'Submit' }>;

function writeSubmit(m: Submit, w: WireWriter): void {
  const q = m.request;
  const present =
    (q.symbol !== undefined ? P_SYMBOL : 0) |
    (q.instrument !== undefined ? P_INSTRUMENT : 0) |
    (q.instrument?.type !== undefined ? P_KIND : 0) |
    (q.limit_price_1e9 !== undefined ? P_LIMIT : 0) |
    (q.time_in_force !== undefined ? P_TIF : 0) |
    (q.venue !== undefined ? P_VENUE : 0) |
    (q.constraints !== undefined ? P_CONSTRAINTS : 0) |
    (q.start_armed !== undefined ? P_ARMED : 0);
  const flags =
    (q.start_armed === true ? F_ARMED : 0) | (q.constraints === null ? F_CONSTRAINTS_NULL : 0) | (m.as === 'json' ? F_JSON : 0) | (q.lineage_deployment_id !== undefined ? F_LINEAGE : 0);
  w.u8(present).u8(flags);
  writeSide(q.side, w);
  w.u8(code(ORDER_TYPES, q.order_type)).u8(code(TIFS, q.time_in_force)).u8(code(KINDS, q.instrument?.type));
  w.f64(q.qty_1e8).str(q.client_order_id);
  if (q.symbol !== undefined) w.word(q.symbol, LEXICON);
  if (q.instrument !== undefined) w.word(q.instrument.symbol, LEXICON);
  if (q.limit_price_1e9 !== undefined) w.f64(q.limit_price_1e9);
  if (q.venue !== undefined) w.word(q.venue, LEXICON);
  if (q.constraints !== undefined && q.constraints !== null) writeConstraints(q.constraints, w);
  w.optStr(m.idempotency_key);
  if (q.lineage_deployment_id !== undefined) w.str(q.lineage_deployment_id);
}

function readSubmit(r: WireReader): Submit {
  const present = r.u8();
  const flags = r.u8();
  const side = readSide(r);
  const order_type = named(ORDER_TYPES, r.u8(), 'order type');
  const tif = r.u8();
  const kind = r.u8();
  const request: OrderRequest = { client_order_id: '', side, qty_1e8: r.f64(), order_type };
  request.client_order_id = r.str();
  if (present & P_SYMBOL) request.symbol = r.word(LEXICON);
  if (present & P_INSTRUMENT) {
    request.instrument = { symbol: r.word(LEXICON) };
    if (present & P_KIND) request.instrument.type = named(KINDS, kind, 'instrument type');
  }
  if (present & P_LIMIT) request.limit_price_1e9 = r.f64();
  if (present & P_TIF) request.time_in_force = named(TIFS, tif, 'time in force');
  if (present & P_VENUE) request.venue = r.word(LEXICON);
  if (present & P_CONSTRAINTS) request.constraints = flags & F_CONSTRAINTS_NULL ? null : readConstraints(r);
  if (present & P_ARMED) request.start_armed = (flags & F_ARMED) !== 0;
  const submit: Submit = { t: 'Submit', request, idempotency_key: r.optStr() };
  if (flags & F_LINEAGE) request.lineage_deployment_id = r.str();
  if (flags & F_JSON) submit.as = 'json';
  return submit;
}

export const submitLayout: MessageLayout<Submit> = { kind: 'router', t: 'Submit', type: RouterFrame.SUBMIT, encode: writeSubmit, decode: readSubmit };

export const makerFillLayout: MessageLayout<MakerFill> = {
  kind: 'router',
  t: 'MakerFill',
  type: RouterFrame.MAKER_FILL,
  encode(m, w) {
    w.str(m.child_id).word(m.venue, LEXICON).word(m.edge_id, LEXICON);
    writeFill(m.fill, w);
    w.f64(m.left_qty_1e8).f64(m.maker_bps);
  },
  decode(r) {
    return { t: 'MakerFill', child_id: r.str(), venue: r.word(LEXICON), edge_id: r.word(LEXICON), fill: readFill(r), left_qty_1e8: r.f64(), maker_bps: r.f64() };
  },
};

/** The router's layouts, for the registry. */
export const routerLayouts = [submitLayout, makerFillLayout];
