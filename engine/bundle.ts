import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The service runs from its TypeScript sources through tsx (`npm start`), or from the esbuild
 * bundle of scripts/build.mjs (the processes the tests spawn: a bundled service boots in about
 * half the time, most of a boot being module loading through tsx's hooks on every thread). A
 * bundle puts every output file in one directory, so the few paths built from `import.meta.url`
 * ask here which layout they are in.
 */
export function bundled(metaUrl: string): boolean {
  return !metaUrl.endsWith('.ts');
}

/** The repository root (a file URL ending in '/'): the nearest directory above `metaUrl` with a package.json. */
export function repoRoot(metaUrl: string): URL {
  for (let dir = dirname(fileURLToPath(metaUrl)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return pathToFileURL(`${dir}/`);
    if (dirname(dir) === dir) throw new Error(`no package.json above ${metaUrl}`);
  }
}
