import type { Tier } from '../domain/tiers.ts';
import type { Databases } from './database.ts';

export interface ClientProfile {
  client_id: string;
  tier: Tier;
  rate_limit_qps: number;
  is_admin: boolean;
  created_at_ms: number;
}

/** Client ids come from JWT `sub` claims and the admin CLI; identity providers use `|` and `@`. */
export const CLIENT_ID_PATTERN = /^[A-Za-z0-9._:@|+-]{1,128}$/;

export class ClientStore {
  private readonly written: ((profile: ClientProfile) => void)[] = [];

  constructor(private readonly db: Databases) {}

  /** Told of each profile this node writes, once durable (the regions replicate it: docs/regions.md). */
  onWritten(listener: (profile: ClientProfile) => void): void {
    this.written.push(listener);
  }

  /** A profile written on another node: stored here, not told to `onWritten` (it came from there). */
  async applyReplica(profile: ClientProfile): Promise<void> {
    if (!CLIENT_ID_PATTERN.test(profile.client_id)) throw new RangeError(`invalid client_id ${profile.client_id}`);
    await this.db.clients.put(profile.client_id, profile);
  }

  get(clientId: string): ClientProfile | undefined {
    return this.db.clients.get(clientId) as ClientProfile | undefined;
  }

  list(): ClientProfile[] {
    return [...this.db.clients.getRange()].map((e) => e.value as ClientProfile);
  }

  /** Creates or overwrites a profile; resolves at commit. */
  async put(profile: ClientProfile): Promise<ClientProfile> {
    if (!CLIENT_ID_PATTERN.test(profile.client_id)) throw new RangeError(`invalid client_id ${profile.client_id}`);
    await this.db.clients.put(profile.client_id, profile);
    for (const listener of this.written) listener(profile);
    return profile;
  }

  /**
   * Provision-on-first-sight (JWT subjects): returns the stored profile, or creates it from
   * `defaults` in a conditional write so two racing first requests create it once.
   */
  async ensure(clientId: string, defaults: Omit<ClientProfile, 'client_id' | 'created_at_ms'>): Promise<ClientProfile> {
    const existing = this.get(clientId);
    if (existing !== undefined) return existing;
    const profile: ClientProfile = { client_id: clientId, ...defaults, created_at_ms: Date.now() };
    const created = await this.db.clients.ifNoExists(clientId, () => {
      this.db.clients.put(clientId, profile);
    });
    if (created) for (const listener of this.written) listener(profile);
    return this.get(clientId) ?? profile;
  }
}
