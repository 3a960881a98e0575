import type { components, ServiceClient } from '../index.ts';
import { stringifyExact } from '../json.ts';
import type { Flags, OptionName } from './args.ts';

export type Schemas = components['schemas'];

/**
 * Exit codes a shell can branch on (client/README.md, CLI). 1 covers every refusal by the
 * service (4xx) so a script needs one test for "the request was wrong or not allowed"; 3 is
 * the class worth retrying later (unreachable, timeouts, 5xx).
 */
export const EXIT = {
  OK: 0,
  REFUSED: 1,
  USAGE: 2,
  UNAVAILABLE: 3,
  ORDER_FAILED: 4,
} as const;

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** whether stdout is a terminal (live redraws clear it; a pipe gets plain successive tables) */
  stdoutTty: boolean;
  /** whether stderr is a terminal (progress redraws one line; a pipe gets a line per change) */
  stderrTty: boolean;
}

export interface Context {
  api: ServiceClient;
  baseUrl: string;
  /** for a command that needs a client of its own (`bench`: one that never retries) */
  apiKey?: string;
  timeoutMs?: number;
  json: boolean;
  io: Io;
}

export interface Command {
  /** the words that select it: `['order', 'submit']` */
  path: readonly string[];
  /** its positional arguments, as shown in usage: `['<symbol>']` */
  args: readonly string[];
  /** the flags it takes beyond the global ones */
  options: readonly OptionName[];
  /** the usage line's flag part: `[--watch]` */
  synopsis?: string;
  summary: string;
  run(ctx: Context, args: readonly string[], flags: Flags): Promise<number>;
}

/** Machine output: the API's JSON as it came, integers past 2^53 written back digit for digit. */
export function printJson(ctx: Context, value: unknown): void {
  ctx.io.stdout(`${stringifyExact(value)}\n`);
}

/** An answer printed as JSON with `--json`, else as `human` renders it. */
export function output<T>(ctx: Context, data: T, human: (data: T) => string): number {
  if (ctx.json) printJson(ctx, data);
  else ctx.io.stdout(human(data));
  return EXIT.OK;
}

/** Nanoseconds or milliseconds since the epoch as an ISO time (`-` when absent). */
export function isoNs(ns: number | null | undefined): string {
  return ns === null || ns === undefined || ns <= 0 ? '-' : new Date(Math.floor(ns / 1e6)).toISOString();
}

export function isoMs(ms: number | null | undefined): string {
  return ms === null || ms === undefined || ms <= 0 ? '-' : new Date(ms).toISOString();
}
