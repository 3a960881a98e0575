import { bybitSignature } from '../signing.ts';

/**
 * Bybit v5 REST authentication, assembled: the string to sign, the four `X-BAPI-*` headers, and
 * the query string whose exact bytes are both sent and signed. Pure: the caller supplies the
 * clock. The HMAC itself is `bybitSignature` (../signing.ts, every venue's signing in one file).
 *
 * From Bybit's Integration Guidance (https://bybit-exchange.github.io/docs/v5/guide,
 * "Authentication", "Create A Request"):
 *
 *  - headers `X-BAPI-API-KEY`, `X-BAPI-TIMESTAMP` (UTC ms), `X-BAPI-SIGN`, and the optional
 *    `X-BAPI-RECV-WINDOW` (ms, default 5,000), always sent here so the window is ours, not a default;
 *  - the string to sign is timestamp + API key + recv window + the query string (GET, "no need
 *    to sort", so exactly as sent) or the JSON body string (POST, exactly as sent);
 *  - HMAC-SHA256 with the API secret, as lowercase hex (RSA keys sign base64: not supported);
 *  - the venue accepts a timestamp in [server_time - recv_window, server_time + 1000): a local
 *    clock running a second ahead is refused (retCode 10002) however large the window, and a
 *    request the venue receives more than recv_window after its timestamp is refused too, which
 *    is what makes a write that went unanswered final after that long (`acceptDeadlineMs`).
 */

/** Our `X-BAPI-RECV-WINDOW`: Bybit's default, written out. */
export const RECV_WINDOW_MS = 5_000;

/** The string Bybit verifies: timestamp + API key + recv window + (query string | JSON body). */
export function stringToSign(timestampMs: string, apiKey: string, recvWindowMs: string, queryOrBody: string): string {
  return timestampMs + apiKey + recvWindowMs + queryOrBody;
}

export interface SignedRequestInput {
  method: 'GET' | 'POST';
  /** path with its query, as sent: `/v5/order/realtime?category=spot&orderLinkId=...` */
  path: string;
  /** the JSON body of a POST, as sent ('' for a GET) */
  body: string;
  apiKey: string;
  apiSecret: string;
  timestampMs: number;
  recvWindowMs?: number;
}

/**
 * The headers of a signed request. A GET signs the query string of `path` (what follows `?`, ''
 * without one), a POST its body. A GET with a body is refused here: Bybit's error table lists a
 * GET sent with a JSON body, even an empty one, among the causes of a 403.
 */
export function signedHeaders(req: SignedRequestInput): Record<string, string> {
  const recvWindow = req.recvWindowMs ?? RECV_WINDOW_MS;
  if (!Number.isSafeInteger(req.timestampMs) || req.timestampMs <= 0) throw new RangeError(`timestamp must be a positive integer of ms, got ${req.timestampMs}`);
  if (!Number.isSafeInteger(recvWindow) || recvWindow <= 0) throw new RangeError(`recv window must be a positive integer of ms, got ${recvWindow}`);
  if (req.method === 'GET' && req.body !== '') throw new Error('a Bybit GET carries no body: its query string is what is signed');
  const payload = req.method === 'GET' ? queryOf(req.path) : req.body;
  const timestamp = String(req.timestampMs);
  const window = String(recvWindow);
  const headers: Record<string, string> = {
    'X-BAPI-API-KEY': req.apiKey,
    'X-BAPI-TIMESTAMP': timestamp,
    'X-BAPI-RECV-WINDOW': window,
    'X-BAPI-SIGN': bybitSignature(timestamp, req.apiKey, window, payload, req.apiSecret),
  };
  if (req.method === 'POST') headers['Content-Type'] = 'application/json';
  return headers;
}

/** The query string of a path: what follows the first `?`, as written. */
export function queryOf(path: string): string {
  const at = path.indexOf('?');
  return at === -1 ? '' : path.slice(at + 1);
}

/** The latest venue time at which a request stamped `timestampMs` can still be accepted. */
export function acceptDeadlineMs(timestampMs: number, recvWindowMs: number = RECV_WINDOW_MS): number {
  return timestampMs + recvWindowMs;
}

/** Characters a query value may carry as they are: RFC 3986 unreserved, and `%` for a value that is already encoded. */
const AS_SENT = /^[A-Za-z0-9._~%-]*$/;

/**
 * A query string from fields in the order given (the signature covers these exact bytes, so
 * the order is the caller's and is never sorted). Values are percent-encoded, except a paging
 * `cursor`: Bybit hands out `nextPageCursor` already encoded (the docs' examples:
 * `page_args%3Dfd4300ae...%26symbol%3D6%26`, `132766%3A2%2C132766%3A2`), and pybit, the official
 * SDK, sends it back as received; encoding it again would send `%253D`. A cursor with any
 * other character is encoded like any value. Fields whose value is undefined are left out.
 */
export function queryString(fields: readonly (readonly [string, string | number | undefined])[]): string {
  const parts: string[] = [];
  for (const [key, value] of fields) {
    if (value === undefined) continue;
    const text = String(value);
    parts.push(`${encodeURIComponent(key)}=${key === 'cursor' && AS_SENT.test(text) ? text : encodeURIComponent(text)}`);
  }
  return parts.join('&');
}
