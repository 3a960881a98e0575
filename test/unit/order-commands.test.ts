/**
 * Commands on an order homed in another region (actors/region-link/order-commands.ts): a command
 * off the wire is checked field by field, and the home's answer becomes this node's
 * (gateway/routes/global-reads.ts): the order, the home router's refusal, or a 503 when unreachable.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseOrderCommand } from '../../actors/region-link/order-commands.ts';
import { homeElsewhere, remoteCommanded } from '../../gateway/routes/global-reads.ts';
import { ApiError } from '../../gateway/errors.ts';
import { ExecutionRefusal, ResultCode } from '../../execution/result-codes.ts';
import type { RegionReads } from '../../gateway/context.ts';
import type { OrderRecord } from '../../domain/orders.ts';

const command = { v: 1, op: 'cancel', client_id: 'alice', mode: 'live', node_order_id: 'ord_abc' };

describe('order commands across regions', () => {
  it('takes a cancel or an activation, and refuses anything else with the field at fault', () => {
    assert.deepEqual(parseOrderCommand(command), command);
    assert.deepEqual(parseOrderCommand({ ...command, op: 'activate', mode: 'sandbox' }), { ...command, op: 'activate', mode: 'sandbox' });
    assert.match(parseOrderCommand({ ...command, v: 2 }) as string, /version/);
    assert.match(parseOrderCommand({ ...command, op: 'amend' }) as string, /^op/);
    assert.match(parseOrderCommand({ ...command, mode: 'paper' }) as string, /^mode/);
    assert.match(parseOrderCommand({ ...command, client_id: '' }) as string, /^client_id/);
    assert.match(parseOrderCommand({ ...command, node_order_id: 7 }) as string, /^node_order_id/);
    assert.match(parseOrderCommand(null) as string, /object/);
  });

  it('answers the home’s order, its refusal as the engine’s, and 503 REGION_UNREACHABLE otherwise', () => {
    const order = { node_order_id: 'ord_abc', status: 'CANCELLED' } as OrderRecord;
    assert.equal(remoteCommanded({ ok: order }, 'na', 'cancel'), order);
    assert.throws(
      () => remoteCommanded({ refused: { code: ResultCode.ORDER_NOT_FOUND, message: 'order ord_abc not found' } }, 'na', 'cancel'),
      (e: unknown) => e instanceof ExecutionRefusal && e.code === ResultCode.ORDER_NOT_FOUND,
    );
    for (const answer of [{ unreachable: '503' }, { refused: { code: 0, message: 'bad order command' } }]) {
      assert.throws(
        () => remoteCommanded(answer, 'na', 'activate'),
        (e: unknown) => e instanceof ApiError && e.status === 503 && e.code === 'REGION_UNREACHABLE' && /home region na did not answer the activate/.test(e.message),
      );
    }
  });

  it('sends a command home only for an order another region homes', () => {
    const reads = { region: 'eu', order: (_c: string, _m: string, id: string) => (id === 'ord_na' ? { home_region: 'na' } : id === 'ord_eu' ? { home_region: 'eu' } : undefined) } as unknown as RegionReads;
    assert.equal(homeElsewhere(reads, undefined, 'alice', 'live', 'ord_na'), 'na');
    assert.equal(homeElsewhere(reads, { node_order_id: 'ord_na' } as OrderRecord, 'alice', 'live', 'ord_na'), undefined, 'held here: carried out here');
    assert.equal(homeElsewhere(reads, undefined, 'alice', 'live', 'ord_eu'), undefined, 'this region’s own');
    assert.equal(homeElsewhere(reads, undefined, 'alice', 'live', 'ord_none'), undefined, 'unknown everywhere: the local 404');
    assert.equal(homeElsewhere(undefined, undefined, 'alice', 'live', 'ord_na'), undefined, 'one node');
  });
});
