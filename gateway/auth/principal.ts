import type { ClientProfile } from '../../storage/clients.ts';

export type Mode = 'live' | 'sandbox';

/** The authenticated caller of a request or WebSocket. */
export interface Principal {
  readonly client_id: string;
  /** From the key prefix: sandbox keys reach only sandbox infrastructure. */
  readonly mode: Mode;
  readonly is_admin: boolean;
  readonly via: 'api_key' | 'operator' | 'jwt';
  /** The API key that authenticated the call, when one did. */
  readonly key_id: string | null;
  /** When the credential stops being valid (a JWT's `exp`, ms); null for keys, which end when revoked. */
  readonly expires_at_ms: number | null;
  readonly profile: ClientProfile;
}
