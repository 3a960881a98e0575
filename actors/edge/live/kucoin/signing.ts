import type { VenueCredentials } from '../../../../storage/credential-shapes.ts';
import { kucoinSignature, kucoinSignedPassphrase } from '../signing.ts';

/**
 * KuCoin's REST authentication headers, assembled from the signatures in `../signing.ts`
 * (held to KuCoin's published example there and in test/unit/live-kucoin.test.ts). Pure: the
 * caller passes the clock. Secrets come in with the credentials and leave only as signatures.
 *
 *   KC-API-KEY          the key
 *   KC-API-SIGN         base64 HMAC-SHA256(secret, timestamp + METHOD + endpoint + body), the
 *                       endpoint with its query string exactly as sent, body '' without one
 *   KC-API-TIMESTAMP    ms since the epoch, the same text as signed; refused (400002) when more
 *                       than 5 s from the venue's clock
 *   KC-API-PASSPHRASE   for a version 2 or 3 key, base64 HMAC-SHA256(secret, passphrase), never
 *                       the passphrase itself (only version 1 keys sent it in clear)
 *   KC-API-KEY-VERSION  the key's version, as KuCoin issued it
 *
 * The version must be the key's own: the gateway answers 400009 "Invalid KC-API-KEY-VERSION",
 * and 400008 "V1 & V2 API keys are no longer supported by this API. Please create a V3 API
 * key." on the APIs that moved on. Keys issued today are version 3 (KuCoin's official SDK sends
 * "3" on every request; the API-key answer's example is `apiVersion: 3`); version 2 keys are
 * signed the same way. The stored credentials carry no version: `extra_json.key_version` (2 or
 * 3) says it, 3 otherwise.
 */

export type KucoinKeyVersion = 2 | 3;

export const DEFAULT_KEY_VERSION: KucoinKeyVersion = 3;

/** The key's version from `extra_json.key_version` (2 or 3, number or text), else 3. */
export function keyVersionOf(credentials: VenueCredentials): KucoinKeyVersion {
  const v = credentials.extra_json?.['key_version'];
  return v === 2 || v === '2' ? 2 : DEFAULT_KEY_VERSION;
}

export interface KucoinHeaders {
  'KC-API-KEY': string;
  'KC-API-SIGN': string;
  'KC-API-TIMESTAMP': string;
  'KC-API-PASSPHRASE': string;
  'KC-API-KEY-VERSION': string;
  /** with a body only: "All requests and responses are application/json" (415000 otherwise) */
  'Content-Type'?: string;
}

/**
 * The headers of one signed request. `endpoint` is the path with its query (`/api/v1/hf/fills?
 * symbol=BTC-USDT&orderId=...`), `body` the exact JSON text sent ('' for GET and DELETE).
 */
export function kucoinHeaders(credentials: VenueCredentials, method: 'GET' | 'POST' | 'DELETE', endpoint: string, body: string, timestampMs: number, keyVersion: KucoinKeyVersion = keyVersionOf(credentials)): KucoinHeaders {
  const timestamp = String(Math.trunc(timestampMs));
  const headers: KucoinHeaders = {
    'KC-API-KEY': credentials.api_key,
    'KC-API-SIGN': kucoinSignature(timestamp, method, endpoint, body, credentials.api_secret),
    'KC-API-TIMESTAMP': timestamp,
    'KC-API-PASSPHRASE': kucoinSignedPassphrase(credentials.passphrase ?? '', credentials.api_secret),
    'KC-API-KEY-VERSION': String(keyVersion),
  };
  if (body !== '') headers['Content-Type'] = 'application/json';
  return headers;
}
