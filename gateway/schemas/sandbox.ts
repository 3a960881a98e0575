import { Type } from 'typebox';
import { VENUES } from '../../domain/market.ts';
import { INSTRUMENT_KINDS } from '../../execution/ledger/ledger.ts';
import type { SandboxResetAnswer, SandboxWriteAnswer } from '../../execution/router/messages.ts';
import { SANDBOX_MAX_ENTRY_PRICE_USD, SANDBOX_MAX_POSITIONS, SANDBOX_MAX_QTY, SANDBOX_MAX_SYMBOL_CHARS } from '../../execution/sandbox.ts';
import type { SandboxSettings } from '../../storage/sandbox-settings.ts';
import { Count, describing, Nullable, StringEnum } from './common.ts';

/**
 * The sandbox endpoints (spec, "Sandbox (sandbox key required)"). Quantities and prices here are
 * plain decimal numbers, as the spec marks them; the service converts them exactly to `_1e8`
 * and `_1e9` (execution/sandbox.ts) and refuses more decimal places than those units carry.
 */

/** initial_balance_usd at most: ten billion dollars a quote asset keeps a venue's value (1e19 in usd_1e9) printable as a JSON integer. */
export const SANDBOX_MAX_BALANCE_USD = 10_000_000_000;

export const SandboxPositionReqSchema = Type.Object(
  {
    venue: StringEnum(VENUES, 'a venue id'),
    kind: StringEnum(INSTRUMENT_KINDS, 'fiat and crypto hold assets, perp a perpetual, event_contract an outcome'),
    symbol: Type.String({
      minLength: 1,
      maxLength: SANDBOX_MAX_SYMBOL_CHARS,
      // No control characters or lone surrogates (common.ts FreeText).
      pattern: '^[^\\p{Cc}\\p{Cs}]*$',
      description:
        'fiat: a fiat code (USD, EUR, GBP); crypto: an asset code (BTC, USDT); perp: the full symbol (BTC-USDT); event_contract: ' +
        '<ticker>:YES or <ticker>:NO, or a conditional token id of at least 30 digits (outcome YES; the NO token id for a NO position)',
    }),
    qty: Type.Number({
      minimum: -SANDBOX_MAX_QTY,
      maximum: SANDBOX_MAX_QTY,
      description: 'decimal native units, at most 8 decimal places; >= 0 except for perps (negative: short)',
    }),
    entry_price_usd: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: SANDBOX_MAX_ENTRY_PRICE_USD,
        description: 'decimal USD per unit, at most 9 decimal places; default 1.0 for fiat and USD stablecoins, 0.0 otherwise',
      }),
    ),
  },
  { $id: 'SandboxPositionReq', additionalProperties: false },
);

export const SandboxPositionsReqSchema = Type.Object(
  {
    positions: Type.Array(SandboxPositionReqSchema, { maxItems: SANDBOX_MAX_POSITIONS, description: `at most ${SANDBOX_MAX_POSITIONS}; written in order, a later one for the same position wins` }),
    replace: Type.Optional(Type.Boolean({ default: false, description: "true: every sandbox position of the account is deleted first; false: upsert by (venue, kind, symbol)" })),
  },
  { $id: 'SandboxPositionsReq', additionalProperties: false },
);

export const SandboxPositionsRespSchema = describing<SandboxWriteAnswer>()(
  Type.Object(
    {
      written: Count('positions written'),
      deleted: Count('positions deleted first (replace)'),
    },
    { $id: 'SandboxPositionsResp', additionalProperties: false },
  ),
);

export const SandboxResetReqSchema = Type.Object({}, { $id: 'SandboxResetReq', additionalProperties: false, description: 'none: an empty body, or none at all' });

export const SandboxResetRespSchema = describing<SandboxResetAnswer & { reset: true; initial_balance_usd: number }>()(
  Type.Object(
    {
      reset: Type.Literal(true),
      initial_balance_usd: Type.Number({ description: 'USD of each quote asset seeded on each venue (the settings this reset made effective)' }),
      venues_seeded: Type.Array(Type.String(), { description: 'venues that got balances (those listing spot or perp markets), in venue order' }),
      orders_ended: Count('working sandbox orders the reset ended (cancelled, or finished while it waited)'),
    },
    { $id: 'SandboxResetResp', additionalProperties: false },
  ),
);

const balance = Type.Number({ minimum: 0, maximum: SANDBOX_MAX_BALANCE_USD, description: 'USD of each quote asset a reset seeds on each venue, at most 8 decimal places' });
const seed = Nullable(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 }), "seed of the sandbox venues' fault draws; null: the service's SANDBOX_SEED");
const latency = Type.Integer({ minimum: 0, maximum: 10_000, description: "added to each venue's own latency before a sandbox child meets the book" });
const rate = (what: string) => Type.Number({ minimum: 0, maximum: 1, description: what });
const cancelRace = Type.Boolean({ description: 'a cancel races a last fill' });

export const SandboxSettingsSchema = describing<SandboxSettings>()(
  Type.Object(
    {
      initial_balance_usd: balance,
      seed,
      latency_ms: latency,
      reject_rate: rate('share of sandbox children the venue refuses'),
      partial_fill_rate: rate('share of IOC children filled only in part'),
      disconnect_rate: rate('share of venue answers lost on the way back (then reconciled)'),
      cancel_race: cancelRace,
    },
    { $id: 'SandboxSettings', additionalProperties: false, description: 'What the next reset makes effective (defaults until set)' },
  ),
);

export const SandboxSettingsReqSchema = Type.Object(
  {
    initial_balance_usd: balance,
    seed: Type.Optional(seed),
    latency_ms: Type.Optional(latency),
    reject_rate: Type.Optional(rate('share of sandbox children the venue refuses')),
    partial_fill_rate: Type.Optional(rate('share of IOC children filled only in part')),
    disconnect_rate: Type.Optional(rate('share of venue answers lost on the way back (then reconciled)')),
    cancel_race: Type.Optional(cancelRace),
  },
  { $id: 'SandboxSettingsReq', additionalProperties: false, description: 'A setting left out keeps its pending value; all take effect on the next reset' },
);
