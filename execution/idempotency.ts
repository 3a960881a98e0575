import { hash } from 'node:crypto';
import type { OrderRequest } from './types.ts';

/**
 * sha256 of the request as JSON with keys sorted at every depth: the idempotency fingerprint.
 * The string is exactly `JSON.stringify` of the key-sorted request (stored hashes stay valid),
 * built in one pass.
 */
export function requestHash(request: OrderRequest): string {
  // A prediction order's legs are resolved from its symbol, not sent: the client's request is the fingerprint.
  const { prediction_legs: _legs, ...sent } = request;
  return hash('sha256', canonicalJson(sent), 'hex');
}

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const record = value as Record<string, unknown>;
  let out = '';
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (v === undefined) continue;
    out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `{${out}}`;
}
