import { parseArgs } from 'node:util';

/** A command line the CLI cannot run as written (exit 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Every flag of every command, parsed in one pass: a flag means the same thing wherever it
 * appears, so one table serves all commands and each command lists which of them it takes.
 * There is deliberately no flag for the API key: a flag's value lands in shell history and in
 * `ps` output, so the key is read from `SEQ_API_KEY` only.
 */
export const OPTIONS = {
  'base-url': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  watch: { type: 'boolean' },
  symbol: { type: 'string' },
  side: { type: 'string' },
  qty: { type: 'string' },
  type: { type: 'string' },
  'limit-price': { type: 'string' },
  tif: { type: 'string' },
  'client-order-id': { type: 'string' },
  'expect-fill': { type: 'boolean' },
  'no-wait': { type: 'boolean' },
  open: { type: 'boolean' },
  limit: { type: 'string' },
  venues: { type: 'string' },
  // bench (bench.ts)
  duration: { type: 'string' },
  rate: { type: 'string' },
  mix: { type: 'string' },
  // --symbols: the comma list under deployments serves the bench too
  notional: { type: 'string' },
  seed: { type: 'string' },
  'max-in-flight': { type: 'string' },
  drain: { type: 'string' },
  out: { type: 'string' },
  'acks-only': { type: 'boolean' },
  'sandbox-setup': { type: 'boolean' },
  // several families: one venue, a time window
  venue: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  // keys
  label: { type: 'string' },
  sandbox: { type: 'boolean' },
  // credentials: identifiers only; secrets come from the environment or stdin (credentials.ts)
  'key-id': { type: 'string' },
  'secret-stdin': { type: 'boolean' },
  'proxy-address': { type: 'string' },
  builder: { type: 'string' },
  // sandbox
  kind: { type: 'string' },
  'entry-price': { type: 'string' },
  replace: { type: 'boolean' },
  file: { type: 'string' },
  'initial-balance': { type: 'string' },
  // prediction markets
  search: { type: 'string' },
  tag: { type: 'string' },
  status: { type: 'string' },
  sort: { type: 'string' },
  cursor: { type: 'string' },
  outcomes: { type: 'boolean' },
  // deployments
  wasm: { type: 'string' },
  symbols: { type: 'string' },
  name: { type: 'string' },
  start: { type: 'boolean' },
  config: { type: 'string' },
  'instrument-type': { type: 'string' },
  follow: { type: 'boolean', short: 'f' },
  // analytics
  period: { type: 'string' },
  'routing-version': { type: 'string' },
  depth: { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;
export type Flags = { [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

/** Flags every command takes. */
export const GLOBAL_OPTIONS: readonly OptionName[] = ['base-url', 'json', 'help'];

const KEY_FLAGS = /^--?(api-?key|key|token)(=|$)/i;

export interface Parsed {
  positionals: string[];
  flags: Flags;
  /** the flags given, to tell each command which of them it does not take */
  given: OptionName[];
}

export function parse(argv: readonly string[]): Parsed {
  const keyFlag = argv.find((a) => KEY_FLAGS.test(a));
  if (keyFlag !== undefined) {
    throw new UsageError(`${keyFlag.split('=')[0]} is not a flag: the API key is read from the SEQ_API_KEY environment variable only, so it never lands in shell history`);
  }
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    return { positionals, flags: values as Flags, given: Object.keys(values) as OptionName[] };
  } catch (err) {
    // parseArgs reports a bad command line as a TypeError with an ERR_PARSE_ARGS_* code.
    if ((err as { code?: unknown }).code?.toString().startsWith('ERR_PARSE_ARGS') === true) throw new UsageError((err as Error).message);
    throw err;
  }
}

/** A flag with a fixed set of values (case-insensitive); anything else is a usage error. */
export function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase();
  const found = allowed.find((a) => a === lower);
  if (found === undefined) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  return found;
}

export function required(flag: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`--${flag} is required`);
  return value;
}

/** A positive integer flag (`--limit`). */
export function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--${flag} must be a whole number (got ${JSON.stringify(value)})`);
  return Number(value);
}
