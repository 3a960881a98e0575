/**
 * When a ledger is checkpointed (execution/ledgers.ts): changes that are not fills at once,
 * fills once enough of them make a rewrite worth its size (`checkpointDue`), and a restart
 * rebuilds the same ledger from the last checkpoint plus the fills after it. Real LMDB in a temp
 * directory.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ledgerFill } from '../../execution/fills.ts';
import { checkpointDue, Ledgers, MAX_CHECKPOINT_AGE_MS, ROWS_PER_FILL } from '../../execution/ledgers.ts';
import type { SandboxWireRow } from '../../execution/sandbox.ts';
import type { FillRecord } from '../../domain/orders.ts';
import type { OrderLog } from '../../execution/types.ts';
import { createLogger } from '../../engine/log.ts';
import { openDatabases } from '../../storage/database.ts';
import { OrderStore } from '../../storage/orders.ts';

const CLIENT = 'checkpointer';

describe('ledger checkpoints', () => {
  it('checkpointDue: after rows / ROWS_PER_FILL fills, or once the oldest is MAX_CHECKPOINT_AGE_MS old; never without fills', () => {
    assert.equal(checkpointDue(20, 0, 10 * MAX_CHECKPOINT_AGE_MS), false);
    assert.equal(checkpointDue(20, 2, 1_000), false);
    assert.equal(checkpointDue(20, 3, 1_000), true);
    assert.equal(checkpointDue(10_000, 1_249, 1_000), false);
    assert.equal(checkpointDue(10_000, 1_250, 1_000), true);
    assert.equal(checkpointDue(10_000, 1, MAX_CHECKPOINT_AGE_MS), true);
    assert.equal(ROWS_PER_FILL * 1_250, 10_000);
  });

  it('a large sandbox ledger is not rewritten for each fill; a restart replays the fills after its checkpoint to the same ledger', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-checkpoints-'));
    const db = openDatabases(dir);
    const log = createLogger('silent');
    try {
      const store = new OrderStore(db);
      let writes = 0;
      const counted = new Proxy(store, {
        get: (target, prop, receiver) => (prop === 'putLedger' ? (...args: Parameters<OrderStore['putLedger']>) => (writes++, target.putLedger(...args)) : Reflect.get(target, prop, receiver)),
      }) as unknown as OrderLog;
      const ledgers = new Ledgers(counted, log, { simAccountUsd: 0 }, () => undefined);
      const rows: SandboxWireRow[] = [['binance', 'crypto', 'USDT', '100000000000000000', '1000000000']];
      for (let i = 0; i < 1_599; i++) rows.push(['binance', 'crypto', `TK${i}`, '100000000', '500000000']);
      await ledgers.writeSandbox(CLIENT, rows, true);
      assert.equal(writes, 1, 'a sandbox write is checkpointed at once');

      const state = ledgers.state(CLIENT, 'sandbox');
      let rewrittenAt = 0;
      const fills = 1_600 / ROWS_PER_FILL + 3;
      for (let id = 1; id <= fills; id++) {
        const fill = { id, fill_id: `fil_${id}`, venue: 'binance', symbol: 'BTC-USDT', side: id % 2 === 1 ? 'buy' : 'sell', qty_1e8: 100_000, price_1e9: 90_000_000_000_000, fee_1e9: 9_000_000 } as FillRecord;
        assert.equal(state.ledger.applyFill(ledgerFill(fill, 'USDT')).status, 'applied');
        store.putFill(CLIENT, 'sandbox', fill);
        ledgers.filled(state, id);
        ledgers.checkpoint();
        if ((writes as number) === 2 && rewrittenAt === 0) rewrittenAt = id;
      }
      // 1,601 rows (the fills opened a BTC row): due once 1,601 <= 8 x fills, at the 201st.
      assert.equal(rewrittenAt, Math.ceil(state.ledger.rowCount / ROWS_PER_FILL));
      assert.equal(writes, 2, 'and not again for the three fills after it');
      await store.durable();
      const before = state.ledger.snapshot({ withFillIds: false });

      // A restart: a new Ledgers over the same database, with fills after the last checkpoint.
      const restarted = new Ledgers(store as unknown as OrderLog, log, { simAccountUsd: 0 }, () => undefined);
      const again = restarted.state(CLIENT, 'sandbox');
      assert.equal(again.watermark, 1_600 / ROWS_PER_FILL + 3);
      assert.deepEqual(again.ledger.snapshot({ withFillIds: false }), before, 'checkpoint + replayed fills = the ledger before the restart');
    } finally {
      await db.root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
