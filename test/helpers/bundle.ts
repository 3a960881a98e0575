import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let built: string | undefined;

/**
 * The directory of an esbuild bundle of this checkout (scripts/build.mjs). `npm test`
 * (scripts/run-tests.mjs) builds one per run before any test starts and names it in
 * `TEST_BUNDLE_DIR`; a test file run on its own builds its own once, under `.build/`, removed
 * when the process exits. Either way a bundle is never older than the sources it was built from.
 * Most of a service's boot is module loading through tsx's hooks on every thread: from a bundle a
 * child process boots in ~2.8 s against ~6.5 s, and an in-process service's workers in ~0.6 s
 * against ~4 s (measured 2026-11-28). `TEST_SERVICE_FROM=sources` runs the sources instead.
 */
export function bundleDir(): string | undefined {
  if (process.env['TEST_SERVICE_FROM'] === 'sources') return undefined;
  const shared = process.env['TEST_BUNDLE_DIR'];
  if (shared !== undefined && shared !== '') return shared;
  if (built === undefined) {
    const dir = join(ROOT, '.build', `test-${process.pid}`);
    execFileSync(process.execPath, ['scripts/build.mjs', dir], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    built = dir;
  }
  return built;
}

/** The node arguments that start the service in a child process: the bundle's main.js, or the sources. */
export function serviceArgs(): string[] {
  const dir = bundleDir();
  return dir === undefined ? ['--import', 'tsx', 'main.ts'] : [join(dir, 'main.js')];
}

/** The node arguments that run the admin script (`npm run admin`): the bundle's admin.js, or the sources. */
export function adminArgs(): string[] {
  const dir = bundleDir();
  return dir === undefined ? ['--import', 'tsx', 'scripts/admin.ts'] : [join(dir, 'admin.js')];
}
