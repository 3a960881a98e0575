import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { configFromEnv } from './config.ts';
import { exitAfterLogs, survivePipeLoss } from './engine/log.ts';
import { startService } from './service.ts';

const config = configFromEnv();
survivePipeLoss();
// An uncaught exception ends the process as by default, but through the bounded log flush.
process.on('uncaughtException', (err: Error) => {
  process.stderr.write(`uncaught exception: ${err.stack ?? err.message}\n`);
  void exitAfterLogs(1);
});

// lmdb-js rejects a failed commit's writes with "Commit failed" and the cause in a second
// promise (`commitError`) that no caller holds. The writes that acknowledge anything are
// watched and refused (storage/write-guard.ts) and the health read-out says so; what is left
// unobserved (the cause, best-effort writes) is logged here, not fatal: a full disk must not
// stop the process. Any other unhandled rejection is a bug: logged and fatal, as by default.
process.on('unhandledRejection', (reason: unknown) => {
  if (reason instanceof Error && (reason.stack ?? '').includes('/lmdb/write.js')) {
    process.stderr.write(`LMDB commit failed: ${reason.message}\n`);
    return;
  }
  process.stderr.write(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
  void exitAfterLogs(1);
});
const service = await startService(config).catch((err: unknown) => {
  // One clear line, not a stack: what could not be done with which directory, and why.
  const code = (err as NodeJS.ErrnoException).code;
  const path = (err as NodeJS.ErrnoException).path;
  const onDataDir = code !== undefined && path !== undefined && path.startsWith(config.dataDir);
  const reason = readOnly(config.dataDir) ? 'the filesystem is read-only' : err instanceof Error ? err.message : String(err);
  process.stderr.write(onDataDir ? `cannot open the data directory ${config.dataDir}: ${reason} (${code})\n` : `start failed: ${reason}\n`);
  return exitAfterLogs(1);
});

/** Whether the directory (or its nearest existing ancestor) is on a read-only filesystem. */
function readOnly(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if (!existsSync(at)) {
      if (dirname(at) === at) return false;
      continue;
    }
    try {
      accessSync(at, constants.W_OK);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EROFS';
    }
  }
}

if (service.generatedOperatorKey !== undefined) {
  // Printed once, outside the structured log, and never stored: only its hash is kept.
  process.stdout.write(
    `\n  Operator key (admin; shown once, only its hash is stored):\n  ${service.generatedOperatorKey}\n\n`,
  );
}
process.stdout.write(`Listening on http://${config.host}:${service.port}  (OpenAPI: /v1/openapi.json)\n`);

/**
 * The longest a graceful stop may take before the process exits anyway. Nothing acknowledged is
 * lost by that: every acknowledged order and fill was durable before its answer (a SIGKILL at
 * any instant is tested to lose none). Under a starved CPU the drain could otherwise run on.
 */
const STOP_DEADLINE_MS = 10_000;

let signalled = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    setTimeout(() => {
      console.error(`shutdown did not finish within ${STOP_DEADLINE_MS} ms; exiting (every acknowledged write is already durable)`);
      void exitAfterLogs(1, 500);
    }, STOP_DEADLINE_MS).unref();
    service.stop().then(
      () => void exitAfterLogs(0),
      (err: unknown) => {
        console.error('shutdown failed', err);
        void exitAfterLogs(1);
      },
    );
  });
}
