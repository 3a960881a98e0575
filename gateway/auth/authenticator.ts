import { readFileSync } from 'node:fs';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { CLIENT_ID_PATTERN, type ClientProfile } from '../../storage/clients.ts';
import { keyMode } from '../../storage/api-keys.ts';
import type { Storage } from '../../storage/index.ts';
import { hexEquals, randomBase62, sha256Hex } from '../../storage/random.ts';
import { Errors } from '../errors.ts';
import { OPERATOR_CLIENT_ID, TIER_QPS } from '../rate-limit/tiers.ts';
import type { Principal } from './principal.ts';

export interface AuthConfig {
  /** Static operator key; when undefined one is generated on first start. */
  operatorKey?: string | undefined;
  jwtSecret?: string | undefined;
  jwksFile?: string | undefined;
  jwtIssuer?: string | undefined;
  jwtAudience?: string | undefined;
  /** The longest a JWT may be valid for, seconds (default 24 h): `exp` is required and bounded. */
  jwtMaxLifetimeS?: number | undefined;
}

/** A JWT valid for longer than this is refused unless configured otherwise (AUTH_JWT_MAX_LIFETIME_S). */
export const DEFAULT_JWT_MAX_LIFETIME_S = 86_400;

interface CachedJwt {
  clientId: string;
  expiresAtMs: number;
}

const JWT_CACHE_MAX = 10_000;
const OPERATOR_PROFILE: Omit<ClientProfile, 'created_at_ms'> = {
  client_id: OPERATOR_CLIENT_ID,
  tier: 'enterprise',
  rate_limit_qps: TIER_QPS.enterprise,
  is_admin: true,
};

/**
 * Resolves `Authorization: Bearer <credential>` to a Principal. Three credentials:
 *   - client API keys (`sqk_live_...`, `sqk_test_...`): SHA-256 lookup in LMDB, synchronous;
 *   - the operator key: compared by hash in constant time, acts as the admin client `operator`;
 *   - identity-provider JWTs (HS256 secret and/or a JWKS file): `sub` is the client id, and an
 *     unknown client is provisioned at tier `free` on first sight. Verified tokens are cached
 *     until they expire so the hot path stays synchronous.
 */
export class Authenticator {
  private operatorKeyHash = '';
  private readonly hmacKey: Uint8Array | undefined;
  private readonly jwks: JWTVerifyGetKey | undefined;
  private readonly jwtCache = new Map<string, CachedJwt>();

  constructor(
    private readonly storage: Storage,
    private readonly config: AuthConfig,
  ) {
    this.hmacKey = config.jwtSecret ? new TextEncoder().encode(config.jwtSecret) : undefined;
    this.jwks = config.jwksFile
      ? createLocalJWKSet(JSON.parse(readFileSync(config.jwksFile, 'utf8')) as Parameters<typeof createLocalJWKSet>[0])
      : undefined;
  }

  /**
   * Prepares the operator identity. Returns the generated operator key when none was configured
   * and none existed yet: the caller prints it once; only its hash is kept.
   */
  async init(): Promise<string | undefined> {
    await this.storage.clients.ensure(OPERATOR_CLIENT_ID, OPERATOR_PROFILE);
    if (this.config.operatorKey) {
      this.operatorKeyHash = sha256Hex(this.config.operatorKey);
      return undefined;
    }
    const stored = this.storage.meta.operatorKeyHash();
    if (stored !== undefined) {
      this.operatorKeyHash = stored;
      return undefined;
    }
    const generated = `sqk_op_${randomBase62(40)}`;
    this.operatorKeyHash = sha256Hex(generated);
    await this.storage.meta.setOperatorKeyHash(this.operatorKeyHash);
    return generated;
  }

  /** Synchronous for API keys, the operator key and cached JWTs; a promise only for a new JWT. */
  authenticate(header: string, nowMs: number): Principal | Promise<Principal> {
    const token = bearerToken(header);
    const mode = keyMode(token);
    if (mode !== undefined) {
      const ref = this.storage.apiKeys.findActive(token);
      if (ref === undefined) throw Errors.unauthenticated('invalid or revoked API key');
      const profile = this.storage.clients.get(ref.client_id);
      if (profile === undefined) throw Errors.unauthenticated('API key belongs to no client');
      this.storage.apiKeys.touch(ref, nowMs);
      return { client_id: profile.client_id, mode, is_admin: profile.is_admin, via: 'api_key', key_id: ref.key_id, expires_at_ms: null, profile };
    }
    if (isJwtShaped(token) && (this.hmacKey !== undefined || this.jwks !== undefined)) {
      const cached = this.jwtCache.get(token);
      if (cached !== undefined && cached.expiresAtMs > nowMs) return this.jwtPrincipal(cached.clientId, cached.expiresAtMs);
      return this.verifyJwt(token, nowMs);
    }
    if (this.operatorKeyHash !== '' && hexEquals(sha256Hex(token), this.operatorKeyHash)) {
      const profile = this.storage.clients.get(OPERATOR_CLIENT_ID)!;
      return { client_id: OPERATOR_CLIENT_ID, mode: 'live', is_admin: true, via: 'operator', key_id: null, expires_at_ms: null, profile };
    }
    throw Errors.unauthenticated('invalid credentials');
  }

  private jwtPrincipal(clientId: string, expiresAtMs: number, profile = this.storage.clients.get(clientId)): Principal {
    if (profile === undefined) throw Errors.unauthenticated('unknown client');
    return { client_id: clientId, mode: 'live', is_admin: profile.is_admin, via: 'jwt', key_id: null, expires_at_ms: expiresAtMs, profile };
  }

  private async verifyJwt(token: string, nowMs: number): Promise<Principal> {
    let sub: string | undefined;
    let exp: number | undefined;
    let iat: number | undefined;
    try {
      const alg = decodeProtectedHeader(token).alg;
      const options = {
        ...(this.config.jwtIssuer ? { issuer: this.config.jwtIssuer } : {}),
        ...(this.config.jwtAudience ? { audience: this.config.jwtAudience } : {}),
      };
      const { payload } =
        alg === 'HS256' && this.hmacKey !== undefined
          ? await jwtVerify(token, this.hmacKey, { ...options, algorithms: ['HS256'] })
          : this.jwks !== undefined
            ? await jwtVerify(token, this.jwks, { ...options, algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'] })
            : (() => {
                throw new Error(`unsupported JWT alg ${alg}`);
              })();
      sub = payload.sub;
      exp = payload.exp;
      iat = payload.iat;
    } catch {
      throw Errors.unauthenticated('invalid or expired token');
    }
    // A bearer token that never expires cannot be revoked: `exp` is required and bounded, from
    // now and from when it was issued (jose has already refused an `exp` in the past).
    const maxLifetimeS = this.config.jwtMaxLifetimeS ?? DEFAULT_JWT_MAX_LIFETIME_S;
    if (exp === undefined) throw Errors.unauthenticated('token has no exp: a JWT must expire');
    if (exp - nowMs / 1000 > maxLifetimeS || (iat !== undefined && exp - iat > maxLifetimeS)) {
      throw Errors.unauthenticated(`token lifetime exceeds the maximum of ${maxLifetimeS} s`);
    }
    if (sub === undefined || !CLIENT_ID_PATTERN.test(sub)) throw Errors.unauthenticated('token has no usable sub');
    if (sub === OPERATOR_CLIENT_ID) throw Errors.unauthenticated('token subject is reserved');
    const profile = await this.storage.clients.ensure(sub, {
      tier: 'free',
      rate_limit_qps: TIER_QPS.free,
      is_admin: false,
    });
    if (this.jwtCache.size >= JWT_CACHE_MAX) this.jwtCache.clear();
    this.jwtCache.set(token, { clientId: sub, expiresAtMs: exp * 1000 });
    return this.jwtPrincipal(sub, exp * 1000, profile);
  }
}

function bearerToken(header: string): string {
  if (header === '') throw Errors.unauthenticated('missing Authorization header');
  if (header.length < 8 || header.slice(0, 7).toLowerCase() !== 'bearer ') {
    throw Errors.unauthenticated('Authorization must be "Bearer <credential>"');
  }
  const token = header.slice(7).trim();
  if (token === '' || token.length > 8192) throw Errors.unauthenticated('empty or oversized bearer credential');
  return token;
}

function isJwtShaped(token: string): boolean {
  const first = token.indexOf('.');
  return first > 0 && token.indexOf('.', first + 1) > first + 1;
}
