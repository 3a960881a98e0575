/**
 * What a router keeps between the parts of an exchange too large for one ring frame
 * (execution/router/staging.ts): a positions view read page by page is one view however it
 * changes meanwhile, and ends with its last page; a sandbox write's staged rows are taken once;
 * both are forgotten after 30 s or beyond 8 at a time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PositionsView, PositionView } from '../../execution/ledger/ledger.ts';
import { PositionPages, POSITIONS_PAGE_ROWS, SandboxUploads } from '../../execution/router/staging.ts';

function view(rows: number, tag = 0): PositionsView {
  const positions = Array.from({ length: rows }, (_, i) => ({ id: i + 1, qty_1e8: tag }) as unknown as PositionView);
  return { positions, totals: { nav_usd_1e9: tag, cash_usd_1e9: 0, unrealized_pnl_usd_1e9: 0, realized_pnl_usd_1e9: 0, fees_usd_1e9: 0, num_positions: rows } };
}

describe('router staging', () => {
  it('pages one view: every page carries its totals, the pages add up to the view, the last says so', () => {
    const pages = new PositionPages();
    let computed = 0;
    const rows = 2 * POSITIONS_PAGE_ROWS + 7;
    let page = pages.page(undefined, () => view(rows, ++computed), 0);
    const ids = page.positions.map((p) => p.id);
    while (page.next !== null) {
      page = pages.page(page.next, () => view(rows, ++computed), 1);
      assert.equal(page.totals.nav_usd_1e9, 1, 'the first view, not a new one');
      ids.push(...page.positions.map((p) => p.id));
    }
    assert.equal(computed, 1);
    assert.deepEqual(ids, Array.from({ length: rows }, (_, i) => i + 1));
    assert.throws(() => pages.page({ read: 1, from: 0 }, () => view(1)), /expired/, 'a read ends with its last page');
    assert.equal(pages.page(undefined, () => view(3), 0).next, null, 'a small view is one page, kept nowhere');
  });

  it('forgets a view not read on within 30 s, and keeps at most 8', () => {
    const pages = new PositionPages();
    const first = pages.page(undefined, () => view(POSITIONS_PAGE_ROWS + 1), 0);
    assert.throws(() => pages.page(first.next!, () => view(1), 30_001), /expired/);
    const reads = Array.from({ length: 9 }, () => pages.page(undefined, () => view(POSITIONS_PAGE_ROWS + 1), 0).next!);
    assert.throws(() => pages.page(reads[0]!, () => view(1), 0), /expired/, 'the oldest of nine was forgotten');
    assert.equal(pages.page(reads[8]!, () => view(1), 0).next, null);
  });

  it('stages a write part by part; its rows are taken once; a stale upload is gone', () => {
    const uploads = new SandboxUploads();
    uploads.stage(1, [['binance', 'crypto', 'BTC', '1', '0']], 0);
    uploads.stage(1, [['binance', 'crypto', 'ETH', '2', '0']], 10);
    uploads.stage(2, [['binance', 'crypto', 'SOL', '3', '0']], 0);
    assert.deepEqual(uploads.take(1, 20)?.map((r) => r[2]), ['BTC', 'ETH']);
    assert.equal(uploads.take(1, 20), undefined);
    assert.equal(uploads.take(2, 30_001), undefined);
  });
});
