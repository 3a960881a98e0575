import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { VenueId } from '../domain/market.ts';

/**
 * Per-venue shape of venue credentials (spec, Credentials, the per-venue table). Pure: no I/O,
 * no state. Every message names the rule and never echoes the value, so a 400 cannot leak a
 * secret.
 *
 *   kind          venues                                api_key          api_secret           other
 *   plain         binance kraken bybit bitstamp         API key          API secret           passphrase optional
 *   passphrase    okx kucoin                            API key          API secret           passphrase required
 *   ec_pem        coinbase                              key id           EC P-256 PEM         passphrase optional (PEM password)
 *   rsa_pem       kalshi                                UUID             RSA PEM (PKCS#1/#8)  -
 *   evm_signer    polymarket                            '' unless L2     '' unless L2         extra_json.signer_private_key ...
 *   evm_agent     hyperliquid                           agent address    agent key hex        passphrase = vault address
 */
export interface VenueCredentials {
  api_key: string;
  api_secret: string;
  passphrase?: string;
  extra_json?: Record<string, unknown>;
}

export interface CredentialFieldError {
  field: string;
  message: string;
}

export type CredentialKind = 'plain' | 'passphrase' | 'ec_pem' | 'rsa_pem' | 'evm_signer' | 'evm_agent';

/** Every venue id must appear: the Record type makes a new venue a compile error here. */
export const CREDENTIAL_KINDS: Readonly<Record<VenueId, CredentialKind>> = {
  binance: 'plain',
  kraken: 'plain',
  bybit: 'plain',
  bitstamp: 'plain',
  okx: 'passphrase',
  kucoin: 'passphrase',
  coinbase: 'ec_pem',
  kalshi: 'rsa_pem',
  polymarket: 'evm_signer',
  hyperliquid: 'evm_agent',
};

export const MAX_FIELD_CHARS = 512;
export const MAX_PEM_BYTES = 8 * 1024;
export const MAX_EXTRA_JSON_BYTES = 16 * 1024;
export const MIN_RSA_BITS = 2048;

/** The spec's wording for the token-style venue (Credentials, Rules; Errors). */
export const SIGNER_REQUIRED_MESSAGE = 'signer material is required in credentials.extra_json.signer_private_key';

const TOKEN = /^[\x21-\x7e]+$/;
const CONTROL = /[\x00-\x1f\x7f]/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_PRIVATE_KEY = /^(0x)?[0-9a-fA-F]{64}$/;
/** The order n of secp256k1: a private key is a scalar in [1, n - 1]. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/** Exactly one PEM block, nothing around it (OpenSSL would skip leading junk). */
const PEM_BLOCK = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n[\s\S]+?\r?\n-----END \1-----$/;
const POLYMARKET_EXTRA_FIELDS = ['signer_private_key', 'proxy_address', 'builder'];

type Errors = CredentialFieldError[];

/** All problems of one input, in field order; empty when the credentials fit the venue. */
export function checkCredentials(venue: VenueId, input: VenueCredentials): CredentialFieldError[] {
  const errors: Errors = [];
  const passphrase = input.passphrase ?? '';
  checkExtraSize(input.extra_json, errors);
  switch (CREDENTIAL_KINDS[venue]) {
    case 'plain':
      checkToken('api_key', input.api_key, errors);
      checkToken('api_secret', input.api_secret, errors);
      if (passphrase !== '') checkPassphrase(passphrase, errors);
      break;
    case 'passphrase':
      checkToken('api_key', input.api_key, errors);
      checkToken('api_secret', input.api_secret, errors);
      if (passphrase === '') errors.push({ field: 'passphrase', message: `is required for ${venue}` });
      else checkPassphrase(passphrase, errors);
      break;
    case 'ec_pem':
      checkToken('api_key', input.api_key, errors);
      if (passphrase !== '') checkPassphrase(passphrase, errors);
      checkEcPem(input.api_secret, passphrase, errors);
      break;
    case 'rsa_pem':
      if (!UUID.test(input.api_key)) errors.push({ field: 'api_key', message: 'must be the key id, a UUID' });
      checkRsaPem(input.api_secret, errors);
      if (passphrase !== '') errors.push({ field: 'passphrase', message: `is not used by ${venue}` });
      break;
    case 'evm_signer':
      checkPolymarket(input, passphrase, errors);
      break;
    case 'evm_agent':
      if (!EVM_ADDRESS.test(input.api_key)) {
        errors.push({ field: 'api_key', message: 'must be the agent wallet address: 0x and 40 hex digits' });
      }
      if (!isEvmPrivateKey(input.api_secret)) {
        errors.push({ field: 'api_secret', message: 'must be the agent wallet private key: 64 hex digits (optional 0x), a valid secp256k1 key' });
      }
      if (passphrase !== '' && !EVM_ADDRESS.test(passphrase)) {
        errors.push({ field: 'passphrase', message: 'must be the vault address: 0x and 40 hex digits' });
      }
      break;
  }
  return errors;
}

/** 64 hex digits (optional 0x) whose value is a secp256k1 scalar: non-zero, below the order. */
export function isEvmPrivateKey(value: unknown): boolean {
  if (typeof value !== 'string' || !EVM_PRIVATE_KEY.test(value)) return false;
  const k = BigInt(value.startsWith('0x') ? value : `0x${value}`);
  return k > 0n && k < SECP256K1_N;
}

/**
 * The token-style venue: a signer key is always required (orders are EIP-712 signed with it);
 * L2 API credentials are optional, but then complete: api_key, api_secret and the passphrase
 * that the venue's L2 HMAC headers carry.
 */
function checkPolymarket(input: VenueCredentials, passphrase: string, errors: Errors): void {
  const extra = input.extra_json ?? {};
  const signer = extra['signer_private_key'];
  if (signer === undefined || signer === null || signer === '') {
    errors.push({ field: 'extra_json.signer_private_key', message: SIGNER_REQUIRED_MESSAGE });
  } else if (!isEvmPrivateKey(signer)) {
    errors.push({
      field: 'extra_json.signer_private_key',
      message: 'must be a hex EVM private key: 64 hex digits (optional 0x), a valid secp256k1 key',
    });
  }
  for (const name of ['proxy_address', 'builder']) {
    const value = extra[name];
    if (value !== undefined && (typeof value !== 'string' || !EVM_ADDRESS.test(value))) {
      errors.push({ field: `extra_json.${name}`, message: 'must be an address: 0x and 40 hex digits' });
    }
  }
  for (const name of Object.keys(extra)) {
    if (!POLYMARKET_EXTRA_FIELDS.includes(name)) errors.push({ field: `extra_json.${name}`, message: 'is not a known field' });
  }
  const l2 = input.api_key !== '' || input.api_secret !== '';
  if (l2) {
    checkToken('api_key', input.api_key, errors, 'must be set together with api_secret (L2 credentials)');
    checkToken('api_secret', input.api_secret, errors, 'must be set together with api_key (L2 credentials)');
    if (passphrase === '') errors.push({ field: 'passphrase', message: 'is required with L2 credentials (api_key and api_secret)' });
    else checkPassphrase(passphrase, errors);
  } else if (passphrase !== '') {
    errors.push({ field: 'passphrase', message: 'is used only with L2 credentials (api_key and api_secret)' });
  }
}

function checkToken(field: string, value: string, errors: Errors, whenEmpty = 'is required'): void {
  if (value === '') errors.push({ field, message: whenEmpty });
  else if (value.length > MAX_FIELD_CHARS) errors.push({ field, message: `must be at most ${MAX_FIELD_CHARS} characters` });
  else if (!TOKEN.test(value)) errors.push({ field, message: 'must be printable ASCII without spaces or line breaks' });
}

function checkPassphrase(value: string, errors: Errors): void {
  if (value.length > MAX_FIELD_CHARS) errors.push({ field: 'passphrase', message: `must be at most ${MAX_FIELD_CHARS} characters` });
  else if (CONTROL.test(value)) errors.push({ field: 'passphrase', message: 'must not contain control characters' });
}

function checkExtraSize(extra: Record<string, unknown> | undefined, errors: Errors): void {
  if (extra !== undefined && Buffer.byteLength(JSON.stringify(extra)) > MAX_EXTRA_JSON_BYTES) {
    errors.push({ field: 'extra_json', message: `must be at most ${MAX_EXTRA_JSON_BYTES} bytes as JSON` });
  }
}

/**
 * One PEM block with an allowed label, parsed by OpenSSL. Returns the key, or pushes the
 * problem and returns undefined. OpenSSL's own error text is not passed on.
 */
function parsePem(value: string, labels: readonly string[], passphrase: string, errors: Errors): KeyObject | undefined {
  if (value === '') {
    errors.push({ field: 'api_secret', message: 'is required: a PEM private key' });
    return undefined;
  }
  if (Buffer.byteLength(value) > MAX_PEM_BYTES) {
    errors.push({ field: 'api_secret', message: `must be at most ${MAX_PEM_BYTES} bytes` });
    return undefined;
  }
  const pem = value.trim();
  const label = PEM_BLOCK.exec(pem)?.[1];
  if (label === undefined) {
    const hint = pem.includes('\\n') ? ' (it holds literal \\n sequences: send real line breaks)' : '';
    errors.push({ field: 'api_secret', message: `must be one complete PEM block, BEGIN to END line${hint}` });
    return undefined;
  }
  if (!labels.includes(label)) {
    errors.push({ field: 'api_secret', message: `must be a PEM of type ${labels.join(' or ')}, not ${label}` });
    return undefined;
  }
  try {
    return createPrivateKey({ key: pem, format: 'pem', ...(passphrase !== '' ? { passphrase } : {}) });
  } catch {
    const why = label === 'ENCRYPTED PRIVATE KEY' ? 'cannot be decrypted with the passphrase' : 'does not parse as a private key';
    errors.push({ field: 'api_secret', message: why });
    return undefined;
  }
}

/** The EC-key exchange signs ES256 JWTs, so the key must be on P-256. */
function checkEcPem(value: string, passphrase: string, errors: Errors): void {
  const key = parsePem(value, ['EC PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY'], passphrase, errors);
  if (key === undefined) return;
  if (key.asymmetricKeyType !== 'ec') {
    errors.push({ field: 'api_secret', message: `must be an EC private key, not ${key.asymmetricKeyType ?? 'unknown'}` });
  } else if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    errors.push({ field: 'api_secret', message: 'must be an EC key on P-256 (prime256v1)' });
  }
}

/** The ticker-style venue signs RSA-PSS over SHA-256 with this key. */
function checkRsaPem(value: string, errors: Errors): void {
  const key = parsePem(value, ['RSA PRIVATE KEY', 'PRIVATE KEY'], '', errors);
  if (key === undefined) return;
  if (key.asymmetricKeyType !== 'rsa') {
    errors.push({ field: 'api_secret', message: `must be an RSA private key, not ${key.asymmetricKeyType ?? 'unknown'}` });
  } else if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) {
    errors.push({ field: 'api_secret', message: `must be an RSA key of at least ${MIN_RSA_BITS} bits` });
  }
}
