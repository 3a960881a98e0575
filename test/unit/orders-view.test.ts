/**
 * Global order reads (actors/region-link/orders-view.ts, gateway/routes/global-reads.ts): the
 * other regions' orders are kept at their newest version whatever order versions arrive in (a
 * replay after a reconnect included), fills once by (home region, id) even when two regions use
 * the same id, this node's own records are ignored; a page merges this node's orders with the
 * view's newest first with a cursor that walks every order once; `region` narrows the scope;
 * sources say which regions are complete.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RemoteOrdersView } from '../../actors/region-link/orders-view.ts';
import { mergeNewestFirst, regionScope, regionSources } from '../../gateway/routes/global-reads.ts';
import type { RegionReads } from '../../gateway/context.ts';

interface O {
  node_order_id: string;
  client_id: string;
  mode: string;
  home_region: string | null;
  updated_unix_ns: number;
  status: string;
}
const order = (id: string, v: number, over: Partial<O> = {}): O => ({ node_order_id: id, client_id: 'c', mode: 'live', home_region: 'na', updated_unix_ns: v, status: `v${v}`, ...over });

describe('global order reads', () => {
  it('keeps the newest version of each order, whatever order the versions arrive in', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('ord_a', 'ord_b', 'ord_c'), fc.integer({ min: 1, max: 50 })), { minLength: 1, maxLength: 60 }), (versions) => {
        const view = new RemoteOrdersView<O, { id: number; node_order_id: string }>('eu');
        for (const [id, v] of versions) view.order('na', order(id, v), 0);
        for (const id of new Set(versions.map(([i]) => i))) {
          const newest = Math.max(...versions.filter(([i]) => i === id).map(([, v]) => v));
          assert.equal(view.get('c', 'live', id)!.updated_unix_ns, newest);
        }
      }),
    );
  });

  it('ignores its own region, keeps fills once by home region and id, filters by region', () => {
    const view = new RemoteOrdersView<O, { id: number; node_order_id: string }>('eu');
    assert.equal(view.order('eu', order('ord_x', 1), 0), false, 'this node’s own orders are in its LMDB');
    view.order('na', order('ord_b', 1), 0);
    view.order('ap', order('ord_a', 1, { home_region: 'ap' }), 0);
    assert.deepEqual(view.orders('c', 'live').map((o) => o.node_order_id), ['ord_b', 'ord_a'], 'newest (largest id) first');
    assert.deepEqual(view.orders('c', 'live', 'ap').map((o) => o.node_order_id), ['ord_a']);
    assert.deepEqual(view.orders('other', 'live'), []);
    assert.equal(view.fill('na', 'c', 'live', { id: 7, node_order_id: 'ord_b' }, 0), true);
    assert.equal(view.fill('na', 'c', 'live', { id: 7, node_order_id: 'ord_b' }, 0), false, 'a replayed fill once');
    assert.equal(view.fill('ap', 'c', 'live', { id: 7, node_order_id: 'ord_a' }, 0), true, 'the same id from another node is another fill');
    assert.deepEqual(view.fills('c', 'live').map((f) => [f.home_region, f.id]), [['ap', 7], ['na', 7]]);
    assert.deepEqual([...view.regions().keys()].sort(), ['ap', 'na']);
  });

  it('a cursor walk over the merged pages visits every order once, newest first', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 80 }), fc.integer({ min: 1, max: 7 }), (ids, limit) => {
        const name = (n: number) => `ord_${String(n).padStart(6, '0')}`;
        const local = ids.filter((n) => n % 2 === 0).map(name).sort().reverse();
        const remote = ids.filter((n) => n % 2 === 1).map(name).sort().reverse();
        const seen: string[] = [];
        let after: string | undefined;
        for (let guard = 0; guard < 200; guard++) {
          const localPage = local.filter((id) => after === undefined || id < after);
          const page = mergeNewestFirst(localPage.slice(0, limit), localPage.length > limit, remote.filter((id) => after === undefined || id < after), limit, (id) => id);
          seen.push(...page.items);
          if (!page.more || page.items.length === 0) break;
          after = page.items[page.items.length - 1];
        }
        assert.deepEqual(seen, [...local, ...remote].sort().reverse());
      }),
    );
  });

  it('scopes by region and says which regions are complete', () => {
    const reads = { region: 'na', sources: () => [{ region: 'eu', reachable: true, caught_up: true }, { region: 'ap', reachable: false, caught_up: true }] } as unknown as RegionReads;
    assert.deepEqual(regionScope(undefined, undefined), { local: true, remote: null }, 'one node: LMDB alone');
    assert.deepEqual(regionScope(reads, undefined), { local: true, remote: undefined });
    assert.deepEqual(regionScope(reads, 'na'), { local: true, remote: null });
    assert.deepEqual(regionScope(reads, 'eu'), { local: false, remote: 'eu' });
    assert.deepEqual(regionSources(reads, regionScope(reads, undefined), 0), [
      { source: 'region', region: 'eu', complete: true },
      { source: 'region', region: 'ap', complete: false },
    ]);
    assert.deepEqual(regionSources(reads, regionScope(reads, 'sa'), 0), [{ source: 'region', region: 'sa', complete: false }], 'a region never heard of: nothing read');
    assert.deepEqual(regionSources(reads, regionScope(reads, 'na'), 0), []);
  });
});
