import { configFromEnv } from './config.ts';
import { flushLogs } from './engine/log.ts';
import { startService } from './service.ts';

const config = configFromEnv();
const service = await startService(config);

if (service.generatedOperatorKey !== undefined) {
  // Printed once, outside the structured log, and never stored: only its hash is kept.
  process.stdout.write(
    `\n  Operator key (admin; shown once, only its hash is stored):\n  ${service.generatedOperatorKey}\n\n`,
  );
}
process.stdout.write(`Listening on http://${config.host}:${service.port}  (OpenAPI: /v1/openapi.json)\n`);

let signalled = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('shutdown failed', err);
        void flushLogs().then(() => process.exit(1));
      },
    );
  });
}
