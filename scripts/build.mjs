#!/usr/bin/env node
// Bundles the service with esbuild (pinned in package.json): main.ts, the worker entry and the
// actor registry, with the code they share split into chunks, every file in one directory
// (engine/bundle.ts says why that matters), packages left to node_modules but a few pure-ESM
// ones (below). The tests spawn services from a bundle (test/helpers/bundle.ts): one boots in
// about half the time of the sources through tsx. `npm start` still runs the sources.
//
//   node scripts/build.mjs [outdir]      (default dist/)
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = process.argv[2] ?? `${root}/dist`;
await build({
  absWorkingDir: root,
  // `seq` (the client's CLI) and `admin` (scripts/admin.ts): for the tests that run them by the dozen.
  entryPoints: { main: 'main.ts', 'worker-main': 'engine/worker-main.ts', registry: 'registry.ts', seq: 'client/src/cli/main.ts', admin: 'scripts/admin.ts' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Packages stay in node_modules, but for the pure-ESM ones made of hundreds of small files:
  // resolving and linking those one by one costs each thread that loads them (typebox alone
  // ~200 ms a thread); bundled, they load as part of the chunk.
  plugins: [externalPackagesBut(['typebox', 'ox', '@noble/hashes', '@noble/curves', 'jose'])],
  sourcemap: 'linked',
  logLevel: 'warning',
});

/** Every bare import external (left to node_modules) except those of `inlined` packages. */
function externalPackagesBut(inlined) {
  const packageOf = (path) => (path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]);
  return {
    name: 'external-packages-but',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => (inlined.includes(packageOf(args.path)) ? undefined : { path: args.path, external: true }));
    },
  };
}
