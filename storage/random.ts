import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 string from the CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const bytes = randomBytes(length * 2);
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      const b = bytes[i]!;
      if (b < 248) out += BASE62[b % 62];
    }
  }
  return out;
}

/**
 * API keys carry about 190 bits of entropy, so a plain SHA-256 is a sound at-rest form (as for
 * other high-entropy bearer tokens); a slow password hash would only slow every request.
 */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function hexEquals(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}
