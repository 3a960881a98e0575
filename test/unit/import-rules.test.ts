/**
 * The folders' import rules, as their READMEs state them: every README of a production folder
 * has one line `Project imports: ...` listing, in backticks, the folders its files may import
 * from (besides their own folder). The nearest README up the tree governs a file. This test
 * reads every relative import of every production file and fails on one the rule does not
 * allow, so the READMEs cannot drift from the code. The examples (examples/) import nothing
 * but `@sequence/client` and `node:` builtins: a user copies one file and has just those.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const GOVERNED = ['domain', 'engine', 'actors', 'execution', 'storage', 'gateway', 'client', 'examples'];
const IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return files(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

/** The governing folder of a file and what its README allows: the nearest README with a rule. */
function ruleOf(file: string): { folder: string; allowed: string[] } {
  for (let dir = dirname(file); dir !== '.'; dir = dirname(dir)) {
    const readme = join(ROOT, dir, 'README.md');
    if (!existsSync(readme)) continue;
    const line = readFileSync(readme, 'utf8').split('\n').find((l) => l.startsWith('Project imports:'));
    if (line === undefined) continue;
    // The allowed list is what precedes the first full stop ("Never ..." lists what is not).
    const list = line.slice('Project imports:'.length).split('. ')[0]!;
    const allowed = [...list.matchAll(/`([a-z-]+(?:\/[a-z-]+)*)\/`/g)].map((m) => m[1]!);
    return { folder: dir, allowed };
  }
  throw new Error(`${file}: no README with a 'Project imports:' line governs it`);
}

describe('import rules (each folder README states them)', () => {
  it('every top-level production folder has a README with a rule', () => {
    for (const top of GOVERNED) {
      const text = readFileSync(join(ROOT, top, 'README.md'), 'utf8');
      assert.match(text, /^Project imports:/m, `${top}/README.md`);
    }
  });

  it('no production file imports outside what its README allows', () => {
    const violations: string[] = [];
    let checked = 0;
    for (const top of GOVERNED) {
      for (const file of files(top)) {
        const { folder, allowed } = ruleOf(file);
        for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(IMPORT)) {
          const target = normalize(join(dirname(file), m[1]!));
          checked++;
          if (target.startsWith(`${folder}/`)) continue;
          if (allowed.some((a) => target.startsWith(`${a}/`))) continue;
          violations.push(`${file} -> ${relative('.', target)} (${folder}/ allows ${allowed.map((a) => `${a}/`).join(', ') || 'nothing else'})`);
        }
      }
    }
    assert.ok(checked > 300, `read ${checked} imports`);
    assert.deepEqual(violations, []);
  });

  it('examples/ import only the client package and node builtins: each is a file a user copies alone', () => {
    const SPECIFIER = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;
    const allowed = (s: string) => s.startsWith('node:') || s === '@sequence/client' || s.startsWith('@sequence/client/');
    const imports = files('examples').flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(SPECIFIER)].map((m) => ({ file, specifier: m[1]! })));
    assert.ok(imports.length >= 15, `read ${imports.length} imports`);
    assert.deepEqual(imports.filter((i) => !allowed(i.specifier)), []);
  });

  it('the check can fail: an upward import is reported', () => {
    const { folder, allowed } = ruleOf('storage/orders.ts');
    assert.equal(folder, 'storage');
    assert.ok(!allowed.some((a) => 'gateway/errors.ts'.startsWith(`${a}/`)), 'storage may not import gateway/');
    assert.deepEqual(ruleOf('execution/sor/sor.ts').folder, 'execution/sor');
  });
});
