#!/usr/bin/env node
// Several test files in one process (scripts/run-tests.mjs): each imported in turn, so node:test
// registers their suites in that order and runs them one after another, and the modules they
// share (the service, typebox, the helpers) are loaded once instead of once per file.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) await import(pathToFileURL(resolve(file)).href);
