import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let built: string | undefined;

/**
 * The node arguments that start the service in a child process: the esbuild bundle of this
 * checkout (scripts/build.mjs), built once per test process into its own directory under
 * `.build/` and removed when the process exits, so test files running side by side never share
 * one and a bundle is never older than the sources it was built from. A bundled service boots
 * in ~2.8 s against ~6.5 s from the sources through tsx, and several suites boot it tens of
 * times. `TEST_SERVICE_FROM=sources` runs the sources instead.
 */
export function serviceArgs(): string[] {
  if (process.env['TEST_SERVICE_FROM'] === 'sources') return ['--import', 'tsx', 'main.ts'];
  if (built === undefined) {
    const dir = join(ROOT, '.build', `test-${process.pid}`);
    execFileSync(process.execPath, ['scripts/build.mjs', dir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    built = join(dir, 'main.js');
  }
  return [built];
}
