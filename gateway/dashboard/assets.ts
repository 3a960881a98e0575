import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { StaticAssets, type StaticFile } from '../http/static.ts';
import { repoRoot } from '../../engine/bundle.ts';

/**
 * The page may load only its own script, style sheet and charting library, and talk only to this
 * service (REST and the WebSocket: CSP Level 3 `'self'` covers ws: and wss: on the same host).
 * No inline script: the key the user pastes is not reachable by an injected one.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Chart.js's self-contained browser build (its package exports only the module builds). */
function chartJsFile(): string {
  const entry = createRequire(import.meta.url).resolve('chart.js');
  return join(dirname(entry), 'chart.umd.min.js');
}

/**
 * The dashboard (docs/dashboard.md): a static page that reads the API with a
 * key the user pastes. The files are served as they are in this folder; no build step.
 */
export function dashboardAssets(): StaticAssets {
  const folder = new URL('gateway/dashboard/', repoRoot(import.meta.url));
  const here = (name: string) => new URL(name, folder);
  const page = { file: here('index.html'), contentType: 'text/html; charset=utf-8', headers: { 'content-security-policy': PAGE_POLICY } };
  const files: StaticFile[] = [
    { path: '/dashboard', ...page },
    { path: '/dashboard/', ...page },
    { path: '/dashboard/app.js', file: here('app.js'), contentType: 'text/javascript; charset=utf-8' },
    { path: '/dashboard/app.css', file: here('app.css'), contentType: 'text/css; charset=utf-8' },
    { path: '/dashboard/vendor/chart.umd.min.js', file: chartJsFile(), contentType: 'text/javascript; charset=utf-8' },
  ];
  return new StaticAssets(files);
}
