/**
 * Builds the publishable package of the client: its TypeScript sources compiled to JavaScript
 * with declarations (`client/tsconfig.build.json`: `.ts` imports rewritten to `.js`), a
 * package.json whose exports and `seq` bin point at that build, packed by `npm pack` into a
 * tarball. Inside this repository the package exports its sources (run through tsx); what is
 * published needs neither tsx nor TypeScript.
 *
 *   npm run client:pack                  # writes sequence-client-<version>.tgz here
 *   npm run client:pack -- --out DIR
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIENT = fileURLToPath(new URL('..', import.meta.url));

interface Manifest {
  exports: Record<string, string>;
  bin: Record<string, string>;
  files: string[];
  [field: string]: unknown;
}

/** `./src/cli/decimal.ts` -> the built module and its declarations. */
function built(source: string): { types: string; default: string } {
  const base = source.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '');
  return { types: `${base}.d.ts`, default: `${base}.js` };
}

/** The published manifest: the same package, its entry points on the build. */
export function publishedManifest(manifest: Manifest): Record<string, unknown> {
  return {
    ...manifest,
    exports: Object.fromEntries(Object.entries(manifest.exports).map(([path, source]) => [path, built(source)])),
    bin: Object.fromEntries(Object.entries(manifest.bin).map(([name, source]) => [name, built(source).default])),
    files: ['dist'],
  };
}

/** Builds and packs into `outDir`; returns the tarball's path. */
export function packClient(outDir: string): string {
  const staging = mkdtempSync(join(tmpdir(), 'seq-client-pack-'));
  try {
    execFileSync(process.execPath, [join(CLIENT, '..', 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(CLIENT, 'tsconfig.build.json'), '--outDir', join(staging, 'dist')], { stdio: 'inherit' });
    // The sources' bin runs through tsx; the build is plain JavaScript.
    const bin = join(staging, 'dist', 'cli', 'main.js');
    writeFileSync(bin, readFileSync(bin, 'utf8').replace(/^#!.*\n/, '#!/usr/bin/env node\n'));
    chmodSync(bin, 0o755);
    const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as Manifest;
    writeFileSync(join(staging, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
    cpSync(join(CLIENT, 'README.md'), join(staging, 'README.md'));
    // Packing a folder needs no registry: nothing here may reach the network (update checks off).
    const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
    const name = execFileSync('npm', ['pack', staging, '--pack-destination', outDir, '--silent'], { encoding: 'utf8', env }).trim().split('\n').pop()!;
    return join(outDir, name);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const out = resolve(at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1]! : '.');
  console.log(packClient(out));
}
