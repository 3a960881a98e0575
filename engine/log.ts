import pino from 'pino';
import type { Logger } from './actor.ts';

/**
 * The process-wide structured logger. Asynchronous destination (sonic-boom buffering) so a log
 * line never blocks a request on stdout; `flushLogs` runs at shutdown. Secrets never reach it:
 * request logs carry key prefixes and client ids only, and the redact list below is a second
 * line of defence for fields that must never be printed.
 */
const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 });

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

export interface RequestLogLine {
  requestId: string;
  method: string;
  path: string;
  status: number;
  latencyUs: number;
  clientId: string | null;
  aborted: boolean;
}

const PLAIN_JSON_TEXT = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

function jsonText(value: string): string {
  return PLAIN_JSON_TEXT.test(value) ? `"${value}"` : JSON.stringify(value);
}

/**
 * The per-request access log: one JSON line in pino's format, built by hand and written to the
 * same asynchronous destination. pino's generic path (serializers, redaction) costs about as
 * much as the rest of a cached request here; this line has a fixed shape and carries no
 * secrets (no query string, no headers), so it needs neither. Decided at configuration time: a
 * level above `info` yields a no-op.
 */
export function createRequestLogger(level: string): (line: RequestLogLine) => void {
  const levels = pino.levels.values;
  if (level === 'silent' || (levels[level] ?? 30) > levels['info']!) return () => {};
  const prefix = `{"level":30,"pid":${process.pid},"msg":"request","time":`;
  // Lines of one event-loop turn go to the destination as one string: sonic-boom measures the
  // byte length of its pending buffer on every write, which per line would cost more than the
  // request itself under load.
  let pending: string[] = [];
  const flush = () => {
    const lines = pending;
    pending = [];
    destination.write(lines.join(''));
  };
  return (l) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push(
      `${prefix}${Date.now()},"req_id":${jsonText(l.requestId)},"method":"${l.method}","path":${jsonText(l.path)},` +
        `"status":${l.status},"latency_us":${l.latencyUs},"client_id":${l.clientId === null ? 'null' : jsonText(l.clientId)}` +
        `${l.aborted ? ',"aborted":true' : ''}}\n`,
    );
  };
}

export function flushLogs(timeoutMs = 1_000): Promise<void> {
  // Asynchronously and bounded: sonic-boom's flushSync retries every failed write forever, not
  // only EAGAIN, so with stdout gone (a parent that died, a closed pipe) a synchronous flush
  // never returns and shutdown hangs. The async flush reports EPIPE, on which pino makes the
  // destination a no-op; if it neither finishes nor fails in time, the synchronous flush that
  // pino runs at process exit is disarmed for the same reason.
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      disarmExitFlush();
      resolve();
    }, timeoutMs);
    timer.unref();
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    try {
      destination.flush(done);
    } catch {
      done(); // destroyed, or not open yet: nothing to flush
    }
  });
}

/**
 * pino flushes its buffer synchronously in a process 'exit' listener, and that flush loops
 * forever on a broken pipe (see flushLogs): a process exiting with its log reader gone would
 * never end, deaf to SIGTERM since the loop holds the thread. Every exit of the service goes
 * through here instead: an asynchronous flush bounded in time, which finds a dead reader, then
 * the exit with the synchronous flush disarmed. Lines logged after the flush are dropped.
 */
export async function exitAfterLogs(code: number, timeoutMs = 1_000): Promise<never> {
  await flushLogs(timeoutMs);
  disarmExitFlush();
  process.exit(code);
}

function disarmExitFlush(): void {
  destination.flushSync = () => {};
}

/**
 * A reader of stdout that goes away (a parent that died, `| head`) is no reason to stop serving:
 * direct writes to stdout (the banner) would otherwise raise an unhandled EPIPE and exit through
 * pino's unbounded exit flush. Logging stops; the service goes on.
 */
export function survivePipeLoss(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    disarmExitFlush();
  });
}
