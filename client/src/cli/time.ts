import { UsageError } from './args.ts';

const RELATIVE = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30m`, `24h`, `7d` ago as epoch milliseconds, or undefined when `text` is not relative. */
function relativeMs(text: string): number | undefined {
  const m = RELATIVE.exec(text);
  return m === null ? undefined : Date.now() - Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

/**
 * A time flag for the analytics windows: `24h` (ago) becomes ISO 8601; anything else is passed
 * on as typed, since the service takes ISO 8601 or integer nanoseconds and says which it refused.
 */
export function timeQuery(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const ms = relativeMs(text);
  return ms === undefined ? text : new Date(ms).toISOString();
}

/** A time flag as epoch milliseconds (`24h` ago, or an ISO 8601 time), for endpoints that count in ms. */
export function timeMs(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = relativeMs(text) ?? Date.parse(text);
  if (!Number.isFinite(ms)) throw new UsageError(`--${flag} must be a duration ago (30m, 24h, 7d) or an ISO 8601 time (got ${JSON.stringify(text)})`);
  return ms;
}
