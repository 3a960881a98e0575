/**
 * Account tiers and their default `rate_limit_qps` (burst is always 2 x qps, per the spec's
 * Limits). `free` is fixed by the spec; the others are our profile values. A profile may carry
 * its own `rate_limit_qps`, which wins over the tier default.
 */
import type { Tier } from '../../domain/tiers.ts';

export { isTier, TIERS, type Tier } from '../../domain/tiers.ts';

export const TIER_QPS: Readonly<Record<Tier, number>> = {
  free: 5,
  paid: 50,
  pro: 250,
  enterprise: 2_000,
};

/** The operator is effectively unlimited: its bucket is never consulted. */
export const OPERATOR_CLIENT_ID = 'operator';
