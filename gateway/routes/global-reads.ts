import type { FillRecord, OrderRecord } from '../../domain/orders.ts';
import type { RegionReads, RemoteCommand } from '../context.ts';
import { ExecutionRefusal, ResultCode } from '../../execution/result-codes.ts';
import { Errors } from '../errors.ts';

/**
 * Global order reads among regions (docs/regions.md, step 4): this node's page from LMDB merged
 * with the other regions' orders from the link's read view, newest first by id (ids lead with
 * their millisecond, so the merge is by time across nodes). `region` narrows to one home region:
 * this node's (LMDB alone) or another's (its view alone). And the commands on an order homed
 * elsewhere (cancel, activate), sent to its home: which home, and its answer as this node's.
 * Pure over its inputs.
 */
export interface RegionScope {
  /** read this node's own orders */
  local: boolean;
  /** read the other regions' view: all of them (undefined) or one; null: none */
  remote: string | undefined | null;
}

export function regionScope(reads: RegionReads | undefined, region: string | undefined): RegionScope {
  if (reads === undefined || region === undefined) return { local: true, remote: reads === undefined ? null : undefined };
  return region === reads.region ? { local: true, remote: null } : { local: false, remote: region };
}

/** The newest `limit` of a local page and remote candidates (each newest first, past the cursor already). */
export function mergeNewestFirst<T>(local: readonly T[], localHasMore: boolean, remote: readonly T[], limit: number, key: (t: T) => string | number): { items: T[]; more: boolean } {
  const all = [...local, ...remote].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? 1 : ka > kb ? -1 : 0;
  });
  return { items: all.slice(0, limit), more: localHasMore || all.length > limit };
}

/** The other regions' orders in scope that pass `filter`, newest first (the whole scope: counts read them all; a page cuts at its cursor). */
export function remoteOrders(reads: RegionReads | undefined, scope: RegionScope, client: string, mode: string, filter: (o: OrderRecord) => boolean): OrderRecord[] {
  if (reads === undefined || scope.remote === null) return [];
  return reads.orders(client, mode, scope.remote).filter(filter);
}

export function remoteFills(reads: RegionReads | undefined, scope: RegionScope, client: string, mode: string, filter: (f: FillRecord) => boolean): FillRecord[] {
  if (reads === undefined || scope.remote === null) return [];
  return reads.fills(client, mode, scope.remote).filter(filter);
}

/** `counts` by status of the remote orders in scope, added to the local ones. */
export function addCounts(counts: Record<string, number>, orders: readonly OrderRecord[]): Record<string, number> {
  const out = { ...counts };
  for (const o of orders) out[o.status] = (out[o.status] ?? 0) + 1;
  return out;
}

/** A listing's `sources` beyond this node's: each other region in scope, complete while reached and read to the stream's end. */
export function regionSources(reads: RegionReads | undefined, scope: RegionScope, nowMs: number): { source: 'region'; region: string; complete: boolean }[] {
  if (reads === undefined || scope.remote === null) return [];
  const regions = reads.sources(nowMs).filter((s) => scope.remote === undefined || s.region === scope.remote);
  // A region asked for that this node has never heard of: nothing was read from it.
  if (typeof scope.remote === 'string' && regions.length === 0) return [{ source: 'region', region: scope.remote, complete: false }];
  return regions.map((s) => ({ source: 'region', region: s.region, complete: s.reachable && s.caught_up }));
}

const RESULT_CODES = new Set<number>(Object.values(ResultCode));

/**
 * An order homed in another region: its home region, when this node is not it (a command on it
 * is carried out there). Undefined for this node's own orders and for ids no region has.
 */
export function homeElsewhere(reads: RegionReads | undefined, local: OrderRecord | undefined, client: string, mode: string, node_order_id: string): string | undefined {
  if (reads === undefined || local !== undefined) return undefined;
  const home = reads.order(client, mode, node_order_id)?.home_region;
  return home != null && home !== reads.region ? home : undefined;
}

/** What an order's home node answered to a command forwarded there, as this node answers it. */
export function remoteCommanded(answer: RemoteCommand, home: string, op: 'cancel' | 'activate'): OrderRecord {
  if ('ok' in answer) return answer.ok;
  if ('refused' in answer && RESULT_CODES.has(answer.refused.code)) throw new ExecutionRefusal(answer.refused.code as ResultCode, answer.refused.message);
  const why = 'refused' in answer ? answer.refused.message : answer.unreachable;
  // A timeout may hide a command carried out at home: the client reads the order, or asks again (both repeat harmlessly).
  throw Errors.unavailable('REGION_UNREACHABLE', `the order's home region ${home} did not answer the ${op} (${why}): read the order for its status, and ${op} again if it is still needed`);
}
