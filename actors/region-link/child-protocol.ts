import type { ReconcileLegFacts } from '../edge/messages.ts';
import { isChildId, type LegReport, type OrderLookup } from '../edge/live/venue.ts';

/**
 * A child order across regions (`seq.child.<region>.<edge_id>`, request/reply): what the home
 * node's remote edge asks of the node running the edge, and what that node answers. Pure.
 */
export type ChildRequest =
  /** run the child once (IOC `ioc`, resting `gtc`); `owner` is the order's router at home */
  | { v: 1; op: 'submit'; home: string; owner: string; child_id: string; symbol: string; side: 'buy' | 'sell'; qty_1e8: number; limit_price_1e9: number | null; tif: 'ioc' | 'gtc' }
  /** what became of it (an answer lost, or a resting child's maker fills); `facts` let an edge that lost its memory ask its venue */
  | { v: 1; op: 'lookup'; home: string; child_id: string; facts: ReconcileLegFacts }
  | { v: 1; op: 'cancel'; home: string; child_id: string };

export type ChildReply =
  | { report: LegReport }
  | { lookup: OrderLookup }
  | { cancel: { found: boolean; cancelled_qty_1e8: number } }
  /** the serving node cannot tell now (its edge did not answer): the home asks again, never guesses */
  | { unknown: string };

const REGION = /^[a-z][a-z0-9-]{0,31}$/;
const positiveInteger = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
const text = (s: unknown, max = 200): s is string => typeof s === 'string' && s.length > 0 && s.length <= max;

/**
 * A request off the wire, checked field by field: another node is trusted to be ours, not to be
 * bug-free. Answers the request, or why it is refused.
 */
export function parseChildRequest(raw: unknown): ChildRequest | string {
  if (typeof raw !== 'object' || raw === null) return 'not an object';
  const r = raw as Record<string, unknown>;
  if (r['v'] !== 1) return `unknown version ${String(r['v'])}`;
  if (typeof r['home'] !== 'string' || !REGION.test(r['home'])) return 'home: not a region name';
  if (typeof r['child_id'] !== 'string' || !isChildId(r['child_id'])) return 'child_id: not a child id';
  switch (r['op']) {
    case 'submit': {
      if (!text(r['owner'])) return 'owner: missing';
      if (!text(r['symbol'])) return 'symbol: missing';
      if (r['side'] !== 'buy' && r['side'] !== 'sell') return 'side: buy or sell';
      if (!positiveInteger(r['qty_1e8'])) return 'qty_1e8: a positive integer';
      if (r['tif'] !== 'ioc' && r['tif'] !== 'gtc') return 'tif: ioc or gtc';
      const limit = r['limit_price_1e9'];
      if (limit !== null && !positiveInteger(limit)) return 'limit_price_1e9: null or a positive integer';
      if (r['tif'] === 'gtc' && limit === null) return 'limit_price_1e9: a resting child needs a limit';
      return raw as ChildRequest;
    }
    case 'lookup': {
      const f = r['facts'] as Record<string, unknown> | null | undefined;
      if (typeof f !== 'object' || f === null) return 'facts: missing';
      if (!text(f['client_id']) || !text(f['owner']) || !text(f['symbol'])) return 'facts: client_id, owner and symbol';
      if (typeof f['resting'] !== 'boolean' || typeof f['sent_ms'] !== 'number' || typeof f['qty_1e8'] !== 'number') return 'facts: resting, sent_ms and qty_1e8';
      return raw as ChildRequest;
    }
    case 'cancel':
      return raw as ChildRequest;
    default:
      return `op: unknown ${String(r['op'])}`;
  }
}
