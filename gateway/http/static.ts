import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** One file served as is beside the API, declared by the module that owns it. */
export interface StaticFile {
  /** The exact request path, e.g. `/dashboard/app.js`. */
  readonly path: string;
  /** Where the bytes are read from, once, at start-up. */
  readonly file: string | URL;
  readonly contentType: string;
  /** Extra headers of this file (a page's Content-Security-Policy). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A file ready to answer: its bytes, its ETag and every header but the content type. */
export interface StaticAsset {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Revalidated on every use (`no-cache` is "store, but ask first"): the files change with the
 * service, and a 304 on the ETag costs a round trip, not the bytes.
 */
const COMMON_HEADERS = { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

/**
 * Static files (the dashboard's page, script, style sheet and charting library): not API
 * operations, so not `RouteSpec`s, not in the router and not in the OpenAPI document. The
 * pipeline looks a path up here before route matching and answers a GET with the bytes read at
 * start-up, or a 304 when `If-None-Match` names the current ETag. Nothing is read from disk per
 * request, and only the declared paths exist: a request path never becomes a file name.
 */
export class StaticAssets {
  private readonly byPath = new Map<string, StaticAsset>();

  constructor(files: readonly StaticFile[]) {
    for (const f of files) {
      if (this.byPath.has(f.path)) throw new Error(`duplicate static path ${f.path}`);
      const body = readFileSync(f.file);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
      this.byPath.set(f.path, { body, contentType: f.contentType, etag, headers: { ...COMMON_HEADERS, ...f.headers, etag } });
    }
  }

  get(path: string): StaticAsset | undefined {
    return this.byPath.get(path);
  }
}

/** Whether an `If-None-Match` value names `etag` (a list, weak validators compared weakly, or `*`). */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === '') return false;
  for (const raw of ifNoneMatch.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}
