import { readFileSync } from 'node:fs';
import { LosslessNumber, parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import { ok } from '../errors.ts';
import { oneOf, required, UsageError, type Flags } from './args.ts';
import { output, type Command, type Schemas } from './context.ts';
import { fromScaled, toScaled } from './decimal.ts';
import { table } from './table.ts';

type Position = Schemas['SandboxPositionReq'];
type PositionsBody = Schemas['SandboxPositionsReq'];

const KINDS = ['fiat', 'crypto', 'perp', 'event_contract'] as const satisfies readonly Position['kind'][];

/**
 * The sandbox endpoints take plain decimals (`qty: 1.5`) and read them from their source text,
 * so the CLI writes the typed digits into the body as a number literal, never through a double
 * (`toScaled` checks the form and the places; `fromScaled` gives the canonical digits back).
 */
function exactDecimal(flag: string, text: string, scale: number, signed = false): number {
  const negative = signed && text.startsWith('-');
  const digits = fromScaled(toScaled(flag, negative ? text.slice(1) : text, scale), scale);
  return new LosslessNumber(`${negative ? '-' : ''}${digits}`) as unknown as number;
}

/** Writes the `LosslessNumber`s above (and a file's numbers) as the literals they hold. */
const exactBody = (body: unknown): string => losslessStringify(body) ?? '';

/** Position flags, which `--file` replaces. */
const POSITION_FLAGS = ['venue', 'kind', 'symbol', 'qty', 'entry-price'] as const;

function positionFromFlags(flags: Flags): Position {
  const entry = flags['entry-price'];
  return {
    // The service checks the venue (400 on its field); the CLI keeps no copy of the list.
    venue: required('venue', flags.venue) as Position['venue'],
    kind: oneOf('kind', required('kind', flags.kind), KINDS)!,
    symbol: required('symbol', flags.symbol),
    qty: exactDecimal('qty', required('qty', flags.qty), 8, true),
    ...(entry === undefined ? {} : { entry_price_usd: exactDecimal('entry-price', entry, 9) }),
  };
}

/** `--file F` (`-` for stdin): a JSON array of positions, or the whole body `{positions, replace}`; numbers kept as written. */
function bodyFromFile(path: string, replace: boolean): PositionsBody {
  let text: string;
  try {
    text = readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`--file ${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    // Numbers stay LosslessNumbers, so they travel on digit for digit.
    parsed = losslessParse(text);
  } catch (err) {
    throw new UsageError(`--file ${path} is not JSON: ${(err as Error).message}`);
  }
  if (Array.isArray(parsed)) return { positions: parsed as Position[], replace };
  const body = parsed as Partial<PositionsBody> | null;
  if (typeof body !== 'object' || body === null || !Array.isArray(body.positions)) throw new UsageError(`--file ${path} must hold an array of positions or {"positions": [...], "replace": bool}`);
  return { positions: body.positions, replace: replace || body.replace === true };
}

const seed: Command = {
  path: ['sandbox', 'seed'],
  args: [],
  options: [...POSITION_FLAGS, 'replace', 'file'],
  synopsis: '--venue V --kind fiat|crypto|perp|event_contract --symbol S --qty Q [--entry-price USD] [--replace] | --file F [--replace]',
  summary: 'write sandbox positions: one from flags (qty in decimal units; a short perp as --qty=-0.5), or many from a JSON file; --replace deletes every sandbox position first',
  async run(ctx, _args, flags) {
    const replace = flags.replace === true;
    let body: PositionsBody;
    if (flags.file !== undefined) {
      const both = POSITION_FLAGS.filter((f) => flags[f] !== undefined);
      if (both.length > 0) throw new UsageError(`--file holds the positions: it cannot go with ${both.map((f) => `--${f}`).join(', ')}`);
      body = bodyFromFile(flags.file, replace);
    } else {
      body = { positions: [positionFromFlags(flags)], replace };
    }
    return output(
      ctx,
      ok(await ctx.api.POST('/v1/sandbox/positions', { body, bodySerializer: exactBody })),
      (d) => `${d.deleted > 0 ? `deleted ${d.deleted} sandbox positions, ` : ''}wrote ${d.written}; seq positions shows them\n`,
    );
  },
};

function settingsTable(s: Schemas['SandboxSettings']): string {
  const rate = (r: number) => `${(r * 100).toFixed(2)}%`;
  return table(
    ['setting', 'value'],
    [
      ['initial balance (USD per quote asset per venue)', String(s.initial_balance_usd)],
      ['seed', s.seed ?? 'service default'],
      ['added latency ms', s.latency_ms],
      ['reject rate', rate(s.reject_rate)],
      ['partial fill rate', rate(s.partial_fill_rate)],
      ['disconnect rate', rate(s.disconnect_rate)],
      ['cancel race', s.cancel_race],
    ],
  );
}

const settings: Command = {
  path: ['sandbox', 'settings'],
  args: [],
  options: ['initial-balance'],
  synopsis: '[--initial-balance USD]',
  summary: 'the sandbox settings the next reset makes effective; --initial-balance changes the balance a reset seeds',
  async run(ctx, _args, flags) {
    const balance = flags['initial-balance'];
    if (balance === undefined) return output(ctx, ok(await ctx.api.GET('/v1/sandbox/settings')), settingsTable);
    const body = { initial_balance_usd: exactDecimal('initial-balance', balance, 8) };
    const answer = ok(await ctx.api.PUT('/v1/sandbox/settings', { body, bodySerializer: exactBody }));
    if (!ctx.json) ctx.io.stderr('takes effect on the next reset (seq sandbox reset)\n');
    return output(ctx, answer, settingsTable);
  },
};

export const sandboxCommands: readonly Command[] = [seed, settings];
