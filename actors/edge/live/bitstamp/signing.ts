import { createHmac, timingSafeEqual } from 'node:crypto';
import type { VenueCredentials } from '../../../../storage/credential-shapes.ts';

/**
 * Bitstamp's HTTP API v2 authentication ("Authentication" of https://www.bitstamp.net/api/, the
 * OpenAPI description the page is built from, and its Python, Java and C++ examples), and the
 * check of the venue's signed answer. Pure: the caller passes the nonce and the clock, so a
 * signature is reproducible (test/unit/live-bitstamp.test.ts). Secrets come in with the
 * credentials and leave only as signatures.
 *
 * Headers of every private request:
 *   X-Auth            "BITSTAMP " + api_key
 *   X-Auth-Signature  HMAC-SHA256(api_secret, string to sign), hex
 *   X-Auth-Nonce      "Client generated random nonce: lowercase, 36 char string, each nonce can
 *                     be used only once within a timeframe of 150 seconds" (the error table's
 *                     API0004 says 300 s): a fresh `crypto.randomUUID()` per request
 *   X-Auth-Timestamp  "Request departure timestamp UTC in milliseconds. If timestamp is more than
 *                     150 seconds from current server time, it will not allow to make the request"
 *   X-Auth-Version    "v2"
 *   Content-Type      "application/x-www-form-urlencoded", and only with a body: "if the request
 *                     body is empty, the Content-Type header has to be removed both from the
 *                     headers and from the signature" (API0020 "Content-Type header should not be
 *                     present" otherwise; API0019 "Content-Type header is not accepted" for
 *                     another value: a C# client met it, ccxt issue 22739, and JKorf's
 *                     CryptoExchange.Net issue 116 suspects a `; charset=` suffix)
 *
 * The string to sign, every part as sent, nothing between them:
 *   "BITSTAMP " + api_key + HTTP verb (upper case) + url.host + url.path + url.query
 *     + content type ('' without a body) + nonce + timestamp + "v2" + request body ('' without one)
 * with, as the docs define the parts:
 *   url.host   "The hostname (lowercase), matching the HTTP Host request header field (including
 *              any port number)": `www.bitstamp.net`, or `127.0.0.1:9105` for a local fake
 *   url.path   "The HTTP request path with leading slash": `/api/v2/balance/`
 *   url.query  "Any query parameters or empty string. This should be the exact string sent by the
 *              client, including urlencoding. Example: '?limit=100&sort=asc'": with its `?`
 * Every v2 private call this service makes is a POST with its parameters in the form body, so
 * the query is ''. The hex case: the docs' Python and C++ examples send lower case, its Java
 * example upper case, so the venue takes either. Lower case here, as ccxt sends it (its
 * `sign()` builds the same string: 'BITSTAMP ' + key + method + url without `https://` +
 * content type + nonce + timestamp + 'v2' + body).
 *
 * Two traps of an empty body. Node's fetch gives a POST with `body: ''` the Content-Type
 * `text/plain;charset=UTF-8` of its own (API0019/API0020), so an empty body must be sent as no
 * body at all: `signRequest` answers `body: undefined` then. And ccxt, instead, sends every
 * bodiless POST with a dummy `foo=bar` form (its issue 6846): not needed when the header and
 * the signature both leave the content type out, as the docs say.
 */

export const AUTH_VERSION = 'v2';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
/** How far X-Auth-Timestamp may be from the venue's clock, either way (API0017 past it). */
export const TIMESTAMP_WINDOW_MS = 150_000;
/** A nonce as the docs describe it: a UUID's 36 characters, lower case. */
export const NONCE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The parts of a request's string to sign, each exactly as sent. */
export interface StringToSignParts {
  apiKey: string;
  method: string;
  /** the Host header's value: lower case, with the port when the URL names one */
  host: string;
  path: string;
  /** `?` and the query as sent, or '' */
  query: string;
  /** '' without a body */
  contentType: string;
  nonce: string;
  timestamp: string;
  /** '' without a body */
  body: string;
}

export function stringToSign(p: StringToSignParts): string {
  return `BITSTAMP ${p.apiKey}${p.method.toUpperCase()}${p.host}${p.path}${p.query}${p.contentType}${p.nonce}${p.timestamp}${AUTH_VERSION}${p.body}`;
}

/** X-Auth-Signature: HMAC-SHA256 of the string to sign under the API secret, lower-case hex. */
export function bitstampSignature(text: string, apiSecret: string): string {
  return createHmac('sha256', apiSecret).update(text, 'utf8').digest('hex');
}

export interface BitstampHeaders {
  'X-Auth': string;
  'X-Auth-Signature': string;
  'X-Auth-Nonce': string;
  'X-Auth-Timestamp': string;
  'X-Auth-Version': string;
  /** with a body only */
  'Content-Type'?: string;
}

export interface SignedRequest {
  method: 'GET' | 'POST';
  /** the URL to fetch, as signed */
  url: string;
  headers: BitstampHeaders;
  /** the form body, or undefined for none (never '': see above) */
  body: string | undefined;
  /** what the answer's X-Server-Auth-Signature is checked against (`checkAnswer`) */
  nonce: string;
  timestamp: string;
}

/**
 * A private request, signed. `url` is the full URL (`https://www.bitstamp.net/api/v2/buy/btcusd/`),
 * `body` the form body exactly as it will be sent ('' for none; a GET carries none). The host,
 * path and query are read from the URL as `fetch` will send them (WHATWG URL: host lower case,
 * the port only when not the scheme's default, path and query percent-encoded). Throws on a
 * nonce that is not a lower-case UUID, a timestamp that is not a positive integer of ms, a URL
 * with credentials or a fragment, or one ending in a bare `?` (sent, but not in `URL.search`).
 */
export function signRequest(credentials: Pick<VenueCredentials, 'api_key' | 'api_secret'>, method: 'GET' | 'POST', url: string, body: string, nonce: string, timestampMs: number): SignedRequest {
  if (!NONCE.test(nonce)) throw new RangeError('X-Auth-Nonce must be a lower-case 36-character UUID');
  if (!Number.isSafeInteger(timestampMs) || timestampMs <= 0) throw new RangeError(`X-Auth-Timestamp must be a positive integer of ms, got ${timestampMs}`);
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`not an HTTP URL: ${u.protocol}`);
  if (u.username !== '' || u.password !== '' || u.hash !== '' || url.endsWith('#')) throw new Error('a Bitstamp request URL carries no credentials or fragment');
  if (u.search === '' && u.href.endsWith('?')) throw new Error('a bare `?` would be sent but not signed: drop it');
  if (method === 'GET' && body !== '') throw new Error('a GET carries no body: its query is what is signed');
  const timestamp = String(timestampMs);
  const contentType = body === '' ? '' : FORM_CONTENT_TYPE;
  const signature = bitstampSignature(
    stringToSign({ apiKey: credentials.api_key, method, host: u.host, path: u.pathname, query: u.search, contentType, nonce, timestamp, body }),
    credentials.api_secret,
  );
  const headers: BitstampHeaders = {
    'X-Auth': `BITSTAMP ${credentials.api_key}`,
    'X-Auth-Signature': signature,
    'X-Auth-Nonce': nonce,
    'X-Auth-Timestamp': timestamp,
    'X-Auth-Version': AUTH_VERSION,
  };
  if (contentType !== '') headers['Content-Type'] = contentType;
  return { method, url: u.href, headers, body: body === '' ? undefined : body, nonce, timestamp };
}

/**
 * The answer's signature as the venue computes it: HMAC-SHA256 under the API secret of
 * nonce + timestamp (the request's, as sent) + the answer's Content-Type header as received +
 * the answer's body bytes as received (the docs' example: `(nonce + timestamp +
 * r.headers.get('Content-Type')).encode('utf-8') + r.content`), lower-case hex.
 */
export function serverSignature(nonce: string, timestamp: string, contentType: string, body: string | Uint8Array, apiSecret: string): string {
  const mac = createHmac('sha256', apiSecret).update(nonce + timestamp + contentType, 'utf8');
  mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  return mac.digest('hex');
}

/**
 * What an answer's `X-Server-Auth-Signature` says:
 *   verified  it is the venue's signature of this answer to this request
 *   missing   no header: the docs check it on a 200 answer only; an error answer (and anything a
 *             proxy or the CDN answers) may carry none
 *   mismatch  the body or its content type is not what the venue signed, or it answers another
 *             request: for a write, its fate is then unknown (look the order up)
 * Compared in constant time, either hex case. `body` must be the bytes as received (read with
 * `arrayBuffer()`): text decoded and encoded again changes a body that is not valid UTF-8.
 */
export function checkAnswer(
  signatureHeader: string | null,
  request: Pick<SignedRequest, 'nonce' | 'timestamp'>,
  contentType: string | null,
  body: string | Uint8Array,
  apiSecret: string,
): 'verified' | 'missing' | 'mismatch' {
  if (signatureHeader === null || signatureHeader === '') return 'missing';
  const got = signatureHeader.trim().toLowerCase();
  const want = serverSignature(request.nonce, request.timestamp, contentType ?? '', body, apiSecret);
  if (!/^[0-9a-f]{64}$/.test(got)) return 'mismatch';
  return timingSafeEqual(Buffer.from(got, 'ascii'), Buffer.from(want, 'ascii')) ? 'verified' : 'mismatch';
}

/**
 * The latest local time at which a request stamped `timestampMs` can still be accepted: the
 * venue refuses it (API0017) once its clock is more than 150 s past the stamp, so with this
 * edge's clock at most `clockLeadMs` ahead of the venue's, an order request that has not
 * reached the venue by then never will, and a lookup by its client order id that finds nothing
 * after this is final. (An order the venue did take but could not confirm, 500.016, is another
 * case: it names the order's id, which is looked up instead.)
 */
export function acceptDeadlineMs(timestampMs: number, clockLeadMs = 5_000): number {
  return timestampMs + TIMESTAMP_WINDOW_MS + clockLeadMs;
}
