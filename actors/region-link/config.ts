import { isVenueId, VENUES, type VenueId } from '../../domain/market.ts';

/**
 * How a node joins the others (issue 18, docs/regions.md). Unset `NATS_URL`: one node, the
 * embedded default, and none of this exists.
 */
export interface RegionConfig {
  /** the NATS servers (`NATS_URL`, comma list), tried in turn */
  natsUrls: string[];
  /** this node's region (`REGION`): its orders' `home_region`, its edges' `region` */
  region: string;
  /** the venues whose edges run on this node (`LOCAL_VENUES`, default every venue) */
  localVenues: VenueId[];
}

/** A region name as subjects and stream names can carry it: `na`, `eu-west-1`. */
const REGION_NAME = /^[a-z][a-z0-9-]{0,31}$/;

function natsUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`NATS_URL: ${JSON.stringify(text)} is not a URL (nats://host:port)`);
  }
  if (url.protocol !== 'nats:' && url.protocol !== 'tls:') throw new Error(`NATS_URL: ${JSON.stringify(text)} must be nats:// or tls://`);
  if (url.hostname === '' || url.port === '') throw new Error(`NATS_URL: ${JSON.stringify(text)} needs a host and a port`);
  if (url.username !== '' || url.password !== '') throw new Error('NATS_URL: credentials do not belong in the URL (they would be logged); use NATS_CREDS');
  return `${url.protocol}//${url.host}`;
}

/** The node's place among the regions, or undefined for a single node; throws on a bad setting. */
export function regionFromEnv(env: NodeJS.ProcessEnv): RegionConfig | undefined {
  const urls = (env['NATS_URL'] ?? '').split(',').map((u) => u.trim()).filter((u) => u !== '');
  if (urls.length === 0) {
    if ((env['LOCAL_VENUES'] ?? '') !== '') throw new Error('LOCAL_VENUES needs NATS_URL: a single node runs every venue');
    return undefined;
  }
  const region = env['REGION'] ?? '';
  if (!REGION_NAME.test(region)) throw new Error(`REGION must name this node's region with NATS_URL set (lowercase letters, digits, '-', e.g. na, eu, ap), got ${JSON.stringify(region)}`);
  const named = (env['LOCAL_VENUES'] ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
  const unknown = named.filter((v) => !isVenueId(v));
  if (unknown.length > 0) throw new Error(`LOCAL_VENUES: unknown venue ${unknown.join(', ')} (known: ${VENUES.join(', ')})`);
  const localVenues: VenueId[] = named.length === 0 ? [...VENUES] : [...new Set(named.filter(isVenueId))];
  return { natsUrls: [...new Set(urls.map(natsUrl))], region, localVenues };
}
