import { constants, createHash, createHmac, randomBytes, sign, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

/**
 * Request signing of the venues' REST APIs (issue 16, real venue adapters). Pure but for
 * Coinbase's random JWT nonce: the caller supplies the timestamp or nonce, so a signature is
 * reproducible and held to the venue's published example or documented string to sign
 * (test/unit/venue-signing.test.ts). Secrets come in as arguments and never leave in anything
 * but the signature. Bitstamp's v2 signing is with its adapter (`bitstamp/signing.ts`): its
 * headers, its ten-part string to sign and the check of the venue's signed answers go together.
 */

/**
 * Binance spot REST, a SIGNED endpoint: HMAC-SHA256 of the exact query string (or form body)
 * with the API secret, as lowercase hex, sent as the `signature` parameter after the others;
 * the API key goes in the `X-MBX-APIKEY` header. The query must already hold `timestamp` (and
 * `recvWindow` when used), encoded as it is sent: the venue verifies the bytes it receives.
 */
export function binanceSignature(query: string, apiSecret: string): string {
  return createHmac('sha256', apiSecret).update(query).digest('hex');
}

/** The query of a Binance SIGNED request with its signature appended. */
export function binanceSignedQuery(query: string, apiSecret: string): string {
  return `${query}&signature=${binanceSignature(query, apiSecret)}`;
}

/**
 * Kraken spot REST, a private endpoint: the `API-Sign` header is the base64 HMAC-SHA512, keyed
 * by the base64-decoded API secret, of the URI path (from `/0/private/`) followed by the
 * SHA-256 of the nonce and the form-encoded POST body (which itself holds `nonce=`). The nonce
 * is an always increasing unsigned 64-bit integer, as decimal text.
 */
export function krakenApiSign(uriPath: string, nonce: string, postData: string, apiSecretBase64: string): string {
  const digest = createHash('sha256').update(nonce + postData).digest();
  return createHmac('sha512', Buffer.from(apiSecretBase64, 'base64')).update(uriPath).update(digest).digest('base64');
}

/**
 * Bybit v5 REST, an HMAC key: `X-BAPI-SIGN` is the HMAC-SHA256 hex of timestamp (ms) + API key +
 * recv window + the query string (GET, as sent, unsorted) or the JSON body (POST), sent with
 * `X-BAPI-API-KEY`, `X-BAPI-TIMESTAMP` and `X-BAPI-RECV-WINDOW`.
 */
export function bybitSignature(timestampMs: string, apiKey: string, recvWindowMs: string, queryOrBody: string, apiSecret: string): string {
  return createHmac('sha256', apiSecret).update(timestampMs + apiKey + recvWindowMs + queryOrBody).digest('hex');
}

/**
 * OKX v5 REST: `OK-ACCESS-SIGN` is the base64 HMAC-SHA256 of timestamp (ISO 8601 with
 * milliseconds, the same text as `OK-ACCESS-TIMESTAMP`) + method in capitals + request path
 * (with its query string) + the JSON body ('' without one); the passphrase goes in
 * `OK-ACCESS-PASSPHRASE` as it was set, unsigned.
 */
export function okxSignature(isoTimestamp: string, method: string, requestPath: string, body: string, apiSecret: string): string {
  return createHmac('sha256', apiSecret).update(isoTimestamp + method.toUpperCase() + requestPath + body).digest('base64');
}

/**
 * KuCoin REST: `KC-API-SIGN` is the base64 HMAC-SHA256 of timestamp (ms) + method in capitals +
 * endpoint (with its query string) + the JSON body ('' without one). With a version 2 key
 * (`KC-API-KEY-VERSION: 2`) the passphrase is sent signed too: `KC-API-PASSPHRASE` is the base64
 * HMAC-SHA256 of the passphrase under the same secret.
 */
export function kucoinSignature(timestampMs: string, method: string, endpoint: string, body: string, apiSecret: string): string {
  return createHmac('sha256', apiSecret).update(timestampMs + method.toUpperCase() + endpoint + body).digest('base64');
}

/** KuCoin's `KC-API-PASSPHRASE` for a version 2 key. */
export function kucoinSignedPassphrase(passphrase: string, apiSecret: string): string {
  return createHmac('sha256', apiSecret).update(passphrase).digest('base64');
}

/**
 * Kalshi trade API v2: `KALSHI-ACCESS-SIGNATURE` is the base64 RSA-PSS signature (SHA-256,
 * MGF1 with SHA-256, salt as long as the digest) of timestamp (ms) + method in capitals + the
 * path without its query string (`/trade-api/v2/portfolio/orders`, whatever follows `?`), sent
 * with `KALSHI-ACCESS-KEY` (the key id) and `KALSHI-ACCESS-TIMESTAMP`. The key is parsed once per credential (`createPrivateKey`), not per order.
 */
export function kalshiSignature(timestampMs: string, method: string, path: string, privateKey: KeyObject): string {
  const query = path.indexOf('?');
  const message = timestampMs + method.toUpperCase() + (query === -1 ? path : path.slice(0, query));
  return sign('sha256', Buffer.from(message), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }).toString('base64');
}

/** How long a Coinbase request token lives: the venue's two minutes. */
const COINBASE_JWT_SECONDS = 120;

/**
 * Coinbase Advanced Trade: every request carries `Authorization: Bearer <JWT>`, an ES256 token
 * signed with the key's EC P-256 private key. Header: `kid` = the key name, a fresh random
 * `nonce`; claims: `iss` "cdp", `sub` = the key name, `nbf` now, `exp` two minutes later, `uri`
 * "METHOD host path" (e.g. "POST api.coinbase.com/api/v3/brokerage/orders"). jose signs it.
 */
export function coinbaseJwt(keyName: string, privateKey: KeyObject, method: string, host: string, path: string, nowSeconds: number): Promise<string> {
  return new SignJWT({ uri: `${method.toUpperCase()} ${host}${path}` })
    .setProtectedHeader({ alg: 'ES256', kid: keyName, nonce: randomBytes(16).toString('hex'), typ: 'JWT' })
    .setIssuer('cdp')
    .setSubject(keyName)
    .setNotBefore(nowSeconds)
    .setExpirationTime(nowSeconds + COINBASE_JWT_SECONDS)
    .sign(privateKey);
}
