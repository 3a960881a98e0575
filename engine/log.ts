import pino from 'pino';
import type { Logger } from './actor.ts';

/**
 * The process-wide structured logger. Asynchronous destination (sonic-boom buffering) so a log
 * line never blocks a request on stdout; `flushLogs` runs at shutdown. Secrets never reach it:
 * request logs carry key prefixes and client ids only, and the redact list below is a second
 * line of defence for fields that must never be printed.
 */
const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });

export const REDACTED_FIELDS = [
  'authorization',
  'raw_key',
  'api_key',
  'api_secret',
  'passphrase',
  'secret',
  'token',
  'ticket',
  'jwt',
  '*.authorization',
  '*.raw_key',
  '*.api_secret',
  '*.secret',
  '*.token',
];

export function createLogger(level: string, bindings: Record<string, unknown> = {}): pino.Logger & Logger {
  return pino(
    {
      level,
      base: { pid: process.pid, ...bindings },
      redact: { paths: REDACTED_FIELDS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.epochTime,
    },
    destination,
  );
}

export function flushLogs(): void {
  try {
    destination.flushSync();
  } catch {
    // Nothing was buffered, or stdout is gone: shutdown goes on either way.
  }
}
