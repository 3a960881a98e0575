import { createPrivateKey, randomBytes, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { VenueCredentials } from '../../../../storage/credential-shapes.ts';

/**
 * Coinbase Advanced Trade authentication with a CDP API key: every REST request carries
 * `Authorization: Bearer <JWT>`, a fresh ES256 token per request, and an authenticated WebSocket
 * subscription carries one in its `jwt` field (a fresh one per message: tokens live two minutes).
 * As Coinbase's own SDK (coinbase-advanced-py `jwt_generator.py`) builds them:
 *
 *   header  {alg: ES256, kid: <key name>, nonce: <random hex>, typ: JWT}
 *   claims  {sub: <key name>, iss: "cdp", nbf: now, exp: now + 120, uri: "<METHOD> <host><path>"}
 *
 * REST tokens name the request in `uri`: the method in capitals, a space, the host and the path
 * WITHOUT its query string (`GET api.coinbase.com/api/v3/brokerage/accounts`, whatever `?limit=`
 * follows; the SDK signs the path and passes the query apart). WebSocket tokens carry no `uri`.
 *
 * Pure but for `jwtNonce` (the randomness) and jose's ECDSA signature (randomized, as ECDSA is):
 * the clock and the nonce are arguments, so a token's header and claims are reproducible.
 *
 * Credentials as stored (storage/credential-shapes.ts, kind `ec_pem`): `api_key` is the key name
 * (`organizations/{org}/apiKeys/{id}`, used as both `kid` and `sub`), `api_secret` the EC P-256
 * private key PEM, SEC1 (`-----BEGIN EC PRIVATE KEY-----`, as the CDP portal hands it out) or
 * PKCS#8 (`PRIVATE KEY`, or `ENCRYPTED PRIVATE KEY` with `passphrase` as its password).
 * (Coinbase also issues Ed25519 keys now, signed EdDSA; the stored shape admits EC keys only.)
 */

/** How long a token lives: Coinbase refuses tokens older than two minutes. */
export const JWT_LIFETIME_S = 120;

/** The REST host as tokens name it (no scheme, no port). */
export const REST_HOST = 'api.coinbase.com';

/** A parsed CDP key: parse once per credential read, sign per request. */
export interface CoinbaseKey {
  /** the key name, `kid` and `sub` */
  name: string;
  privateKey: KeyObject;
}

/**
 * The stored credentials as a signing key. Throws (without echoing the secret) on a PEM OpenSSL
 * cannot read or decrypt, or a key that is not EC P-256: ES256 is ECDSA over P-256 and SHA-256.
 */
export function coinbaseKey(credentials: VenueCredentials): CoinbaseKey {
  const name = credentials.api_key;
  if (name === '') throw new Error('coinbase credentials: api_key (the key name) is empty');
  const passphrase = credentials.passphrase ?? '';
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: credentials.api_secret.trim(), format: 'pem', ...(passphrase !== '' ? { passphrase } : {}) });
  } catch {
    throw new Error('coinbase credentials: api_secret is not a private key PEM this passphrase opens');
  }
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new Error('coinbase credentials: api_secret must be an EC P-256 key (ES256)');
  }
  return { name, privateKey };
}

/** A fresh nonce for a token's header: 32 random bytes as hex, as the SDK's `secrets.token_hex()`. */
export function jwtNonce(): string {
  return randomBytes(32).toString('hex');
}

/** A REST request as a token's `uri` claim: `POST api.coinbase.com/api/v3/brokerage/orders`; any query string is left out. */
export function restUri(method: string, host: string, pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?');
  return `${method.toUpperCase()} ${host}${q === -1 ? pathAndQuery : pathAndQuery.slice(0, q)}`;
}

const NONCE = /^[0-9a-f]+$/;

function token(key: CoinbaseKey, nowSeconds: number, nonce: string, uri: string | null, lifetimeS: number): Promise<string> {
  if (!Number.isSafeInteger(nowSeconds) || nowSeconds <= 0) throw new RangeError(`coinbase jwt: now must be whole seconds, got ${nowSeconds}`);
  if (!NONCE.test(nonce)) throw new RangeError('coinbase jwt: the nonce must be lowercase hex (jwtNonce)');
  // Longer than Coinbase's two minutes would be refused; under a second, `exp` would equal `nbf`.
  if (!Number.isSafeInteger(lifetimeS) || lifetimeS < 1 || lifetimeS > JWT_LIFETIME_S) throw new RangeError(`coinbase jwt: lifetime must be 1 to ${JWT_LIFETIME_S} whole seconds, got ${lifetimeS}`);
  return new SignJWT(uri === null ? {} : { uri })
    .setProtectedHeader({ alg: 'ES256', kid: key.name, nonce, typ: 'JWT' })
    .setSubject(key.name)
    .setIssuer('cdp')
    .setNotBefore(nowSeconds)
    .setExpirationTime(nowSeconds + lifetimeS)
    .sign(key.privateKey);
}

/**
 * The bearer token of one REST request (`path` as sent, with or without its query). A shorter
 * `lifetimeS` bounds how late Coinbase can still act on the request (the adapter's orders).
 */
export function restJwt(key: CoinbaseKey, method: string, host: string, path: string, nowSeconds: number, nonce: string, lifetimeS = JWT_LIFETIME_S): Promise<string> {
  return token(key, nowSeconds, nonce, restUri(method, host, path), lifetimeS);
}

/** The token of one WebSocket subscribe or unsubscribe message: no `uri`. */
export function wsJwt(key: CoinbaseKey, nowSeconds: number, nonce: string, lifetimeS = JWT_LIFETIME_S): Promise<string> {
  return token(key, nowSeconds, nonce, null, lifetimeS);
}
