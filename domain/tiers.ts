/** Account tiers (spec, Limits): what a client profile carries; their rate limits are the gateway's. */
export const TIERS = ['free', 'paid', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}
