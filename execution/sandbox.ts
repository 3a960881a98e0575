/**
 * The sandbox endpoints' positions (spec, "Sandbox (sandbox key required)", rules 1-5): the
 * API's decimal `{venue, kind, symbol, qty, entry_price_usd}` checked and turned into exact
 * ledger amounts, and the instrument a symbol names. Pure: the gateway checks a whole request
 * with it before anything is sent (one bad position refuses the call), the router builds its
 * ledger rows with it.
 *
 *   POST /v1/sandbox/positions -> checkSandboxPositions -> SandboxWireRow[] (exact integers as text)
 *     -> router:sandbox|<client> (SandboxPositions, in parts of SANDBOX_ROWS_PER_MESSAGE)
 *     -> statedPosition -> Ledger.setPosition -> checkpoint, durable -> {written, deleted}
 */
import { parseSymbol } from '../domain/market.ts';
import { decimalToScaled } from '../domain/units.ts';
import { venues } from '../domain/venues.ts';
import { FIAT_CODES, INSTRUMENT_KINDS, isFiat, isStablecoin, type Instrument, type InstrumentKind } from './ledger/ledger.ts';

/** Positions in one call, at most (spec: none; more is a 400). */
export const SANDBOX_MAX_POSITIONS = 10_000;
/** Rows a sandbox ledger may hold after a write: the positions of one call and a reset's balances, with room. */
export const SANDBOX_MAX_ROWS = 20_000;
/** |qty| at most, in native units: 1e15 is 1e23 in _1e8, exact as a bigint. */
export const SANDBOX_MAX_QTY = 1e15;
/** entry_price_usd at most: a billion dollars a unit (1e18 in _1e9). */
export const SANDBOX_MAX_ENTRY_PRICE_USD = 1e9;
/** A symbol's length at most (a conditional token id is 77 or 78 digits). */
export const SANDBOX_MAX_SYMBOL_CHARS = 200;
/** Rows per router message: a message crosses one ring frame (at most half a ring). */
export const SANDBOX_ROWS_PER_MESSAGE = 1_000;
/** Decimal places: qty is _1e8, prices _1e9 (spec, Conventions). */
const QTY_DECIMALS = 8;
const PRICE_DECIMALS = 9;
/** Digits of a conditional token id at least (spec, Sandbox rule 5). */
const TOKEN_ID_MIN_DIGITS = 30;

const ASSET = /^[A-Z0-9]{1,15}$/;
const TOKEN_ID = new RegExp(`^[0-9]{${TOKEN_ID_MIN_DIGITS},}$`);

/** One position as the API takes it (qty and entry price are decimal numbers). */
export interface SandboxPositionInput {
  venue: string;
  kind: string;
  symbol: string;
  qty: number;
  entry_price_usd?: number;
}

/** A checked position on its way to the router: exact integers as decimal text (msgpack carries no bigint). */
export type SandboxWireRow = [venue: string, kind: InstrumentKind, symbol: string, qty_1e8: string, entry_price_usd_1e9: string];

/** A position as the ledger takes it. */
export interface StatedPosition {
  venue: string;
  instrument: Instrument;
  qty_1e8: bigint;
  entry_price_usd_1e9: bigint;
}

export interface SandboxFieldError {
  field: string;
  message: string;
}

/** Problems reported per call, at most: the first ones say what is wrong. */
const MAX_ERRORS = 100;

/**
 * The instrument a sandbox symbol names (rules 4-5): an asset code for fiat and crypto, the full
 * `BASE-QUOTE` symbol for a perp; for an event contract `<ticker>:YES` / `<ticker>:NO` (that
 * outcome, no token id), a numeric string of at least 30 digits (outcome YES, the string its
 * token id: a NO position on the token-style venue is its NO token's id), anything else outcome
 * YES and no token id. The market slug is the ticker, or the whole string. Undefined when the
 * symbol does not fit its kind (checkSandboxPositions says why).
 */
export function sandboxInstrument(kind: InstrumentKind, symbol: string): Instrument | undefined {
  switch (kind) {
    case 'fiat':
      return isFiat(symbol) ? { kind: 'fiat', code: symbol } : undefined;
    case 'crypto':
      return ASSET.test(symbol) && !isFiat(symbol) ? { kind: 'crypto', symbol } : undefined;
    case 'perp': {
      const parts = parseSymbol(symbol);
      return parts === undefined ? undefined : { kind: 'perp', symbol, base: parts.base };
    }
    case 'event_contract': {
      if (symbol.length === 0) return undefined;
      for (const outcome of ['YES', 'NO']) {
        const suffix = `:${outcome}`;
        if (symbol.length > suffix.length && symbol.endsWith(suffix)) {
          return { kind: 'event_contract', market_slug: symbol.slice(0, -suffix.length), outcome, token_id: null, expiry_ts: null };
        }
      }
      const tokenId = TOKEN_ID.test(symbol) ? symbol : null;
      return { kind: 'event_contract', market_slug: symbol, outcome: 'YES', token_id: tokenId, expiry_ts: null };
    }
  }
}

/** Rule 2: $1 for fiat and USD-pegged stablecoins, 0 ("cost basis unknown") for everything else. */
export function defaultEntryPrice1e9(kind: InstrumentKind, symbol: string): bigint {
  return kind === 'fiat' || (kind === 'crypto' && isStablecoin(symbol)) ? 1_000_000_000n : 0n;
}

/**
 * Checks every position of a call and converts it (rules 1-5): the whole call is refused when
 * any position is wrong, so nothing is written. Amounts are exact: qty to _1e8 and the entry
 * price to _1e9 from the number's decimal text; more decimal places than that is refused, not
 * rounded. `exactText(i, field)` gives a number's source text when the parsed double may have
 * rounded it (`gateway/http/exact-json.ts`): 123456789012.12345678 stays exactly that.
 */
export function checkSandboxPositions(
  positions: readonly SandboxPositionInput[],
  exactText: (index: number, field: 'qty' | 'entry_price_usd') => string | undefined = () => undefined,
): { rows: SandboxWireRow[] } | { errors: SandboxFieldError[] } {
  const errors: SandboxFieldError[] = [];
  const fail = (field: string, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ field, message });
  };
  if (positions.length > SANDBOX_MAX_POSITIONS) return { errors: [{ field: 'positions', message: `at most ${SANDBOX_MAX_POSITIONS} positions per call` }] };
  const known = new Set(venues().map((v) => v.venue as string));
  const rows: SandboxWireRow[] = [];
  positions.forEach((p, i) => {
    const at = `positions[${i}]`;
    const before = errors.length;
    if (!known.has(p.venue)) fail(`${at}.venue`, 'is not a known venue');
    const kind = (INSTRUMENT_KINDS as readonly string[]).includes(p.kind) ? (p.kind as InstrumentKind) : undefined;
    if (kind === undefined) fail(`${at}.kind`, `must be one of ${INSTRUMENT_KINDS.join(', ')}`);
    else if (typeof p.symbol !== 'string' || p.symbol.length === 0 || p.symbol.length > SANDBOX_MAX_SYMBOL_CHARS) fail(`${at}.symbol`, `must be 1 to ${SANDBOX_MAX_SYMBOL_CHARS} characters`);
    else if (sandboxInstrument(kind, p.symbol) === undefined) fail(`${at}.symbol`, symbolRule(kind));
    const qty = typeof p.qty === 'number' && Math.abs(p.qty) <= SANDBOX_MAX_QTY ? decimalToScaled(exactText(i, 'qty') ?? p.qty, QTY_DECIMALS) : undefined;
    if (qty === undefined) fail(`${at}.qty`, `must be a finite number of at most ${SANDBOX_MAX_QTY} in size with at most ${QTY_DECIMALS} decimal places`);
    else if (qty < 0n && kind !== undefined && kind !== 'perp') fail(`${at}.qty`, `must be >= 0 for ${kind} (only perps may be short)`);
    let entry: bigint | undefined;
    if (p.entry_price_usd !== undefined) {
      entry = typeof p.entry_price_usd === 'number' && p.entry_price_usd >= 0 && p.entry_price_usd <= SANDBOX_MAX_ENTRY_PRICE_USD ? decimalToScaled(exactText(i, 'entry_price_usd') ?? p.entry_price_usd, PRICE_DECIMALS) : undefined;
      if (entry === undefined) fail(`${at}.entry_price_usd`, `must be a number from 0 to ${SANDBOX_MAX_ENTRY_PRICE_USD} with at most ${PRICE_DECIMALS} decimal places`);
    }
    if (errors.length > before || kind === undefined || qty === undefined) return;
    rows.push([p.venue, kind, p.symbol, qty.toString(), (entry ?? defaultEntryPrice1e9(kind, p.symbol)).toString()]);
  });
  return errors.length > 0 ? { errors } : { rows };
}

function symbolRule(kind: InstrumentKind): string {
  switch (kind) {
    case 'fiat':
      return `must be a fiat code: ${FIAT_CODES.join(', ')}`;
    case 'crypto':
      return 'must be an asset code of 1 to 15 capital letters and digits, not a fiat code';
    case 'perp':
      return 'must be a full perpetual symbol BASE-QUOTE, e.g. BTC-USDT';
    case 'event_contract':
      return 'must be <ticker>:YES, <ticker>:NO or a conditional token id';
  }
}

/** A wire row as the ledger takes it; undefined for a row that is not one checkSandboxPositions made. */
export function statedPosition(row: SandboxWireRow): StatedPosition | undefined {
  const [venue, kind, symbol, qty, entry] = row;
  if (!venues().some((v) => v.venue === venue) || !(INSTRUMENT_KINDS as readonly string[]).includes(kind)) return undefined;
  const instrument = sandboxInstrument(kind, symbol);
  if (instrument === undefined || !/^-?[0-9]+$/.test(qty) || !/^[0-9]+$/.test(entry)) return undefined;
  return { venue, instrument, qty_1e8: BigInt(qty), entry_price_usd_1e9: BigInt(entry) };
}
