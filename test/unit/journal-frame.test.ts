/**
 * The journal frame (execution/journal/frame.ts) round-trips every field of every record kind,
 * for any strings (UTF-8, empty, long), any status pair, any fill id or reply token below 2^53, any value
 * bytes, in any order and number; and a frame's records decode as what the router encoded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Packr, Unpackr } from 'msgpackr';
import { ORDER_STATUSES } from '../../domain/orders.ts';
import { journalFrameSequence, JournalFrameWriter, readJournalFrame, type JournalRecord } from '../../execution/journal/frame.ts';

const mode = fc.constantFrom('live' as const, 'sandbox' as const);
const status = fc.constantFrom(...ORDER_STATUSES);
const text = fc.string({ unit: 'binary', maxLength: 300 });
const bytes = fc.uint8Array({ maxLength: 2_000 });

const record: fc.Arbitrary<JournalRecord> = fc.oneof(
  fc.record({ kind: fc.constant('order' as const), client_id: text, mode, node_order_id: text, status, previous_status: fc.option(status, { nil: null }), value: bytes }),
  fc.record({ kind: fc.constant('order_key' as const), client_id: text, mode, key: text, node_order_id: text }),
  fc.record({ kind: fc.constant('fill' as const), client_id: text, mode, fill_id: fc.maxSafeNat(), value: bytes }),
  fc.record({ kind: fc.constant('ledger' as const), client_id: text, mode, offset: fc.maxSafeNat(), value: bytes }),
  fc.record({ kind: fc.constant('ledger_part' as const), client_id: text, mode, offset: fc.maxSafeNat(), value: bytes }),
  fc.record({ kind: fc.constant('reply' as const), token: fc.maxSafeNat(), status: fc.integer({ min: 100, max: 599 }), json: text }),
  fc.record({ kind: fc.constant('completed' as const), client_id: text, mode, node_order_id: text }),
  fc.record({ kind: fc.constant('tca_delta' as const), client_id: text, mode, value: bytes }),
);

function write(w: JournalFrameWriter, r: JournalRecord): void {
  if (r.kind === 'order') w.order(r.client_id, r.mode, r.node_order_id, r.status, r.previous_status, r.value);
  else if (r.kind === 'order_key') w.orderKey(r.client_id, r.mode, r.key, r.node_order_id);
  else if (r.kind === 'fill') w.fill(r.client_id, r.mode, r.fill_id, r.value);
  else if (r.kind === 'ledger') w.ledger(r.client_id, r.mode, r.value, r.offset);
  else if (r.kind === 'ledger_part') w.ledgerPart(r.client_id, r.mode, r.offset, r.value);
  else if (r.kind === 'completed') w.completed(r.client_id, r.mode, r.node_order_id);
  else if (r.kind === 'tca_delta') w.tcaDelta(r.client_id, r.mode, r.value);
  else w.reply(r.token, r.status, Buffer.from(r.json, 'utf8'));
}

/** Lone surrogates do not survive UTF-8 (they become U+FFFD): compare what UTF-8 can carry. */
const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('utf8');
function normalised(r: JournalRecord): unknown {
  if (r.kind === 'reply') return { ...r, json: utf8(r.json) };
  const out: Record<string, unknown> = { ...r, client_id: utf8(r.client_id) };
  if ('node_order_id' in r) out['node_order_id'] = utf8(r.node_order_id);
  if ('key' in r) out['key'] = utf8(r.key);
  if ('value' in r) out['value'] = Buffer.from(r.value).toString('hex');
  return out;
}

describe('journal frame: binary layout', () => {
  it('round-trips every field of every record, in order (property)', () => {
    const w = new JournalFrameWriter();
    fc.assert(
      fc.property(fc.array(record, { maxLength: 40 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (records, sequence) => {
        w.reset();
        for (const r of records) write(w, r);
        // The frame crosses the ring as a copy: decode from a fresh buffer, as the journal does.
        const frame = Buffer.from(w.finish(sequence));
        assert.equal(journalFrameSequence(frame), sequence);
        const read: JournalRecord[] = [];
        assert.equal(readJournalFrame(frame, (r) => read.push(r)), records.length);
        assert.deepEqual(read.map(normalised), records.map(normalised));
      }),
      { numRuns: 500 },
    );
  });

  it('carries an order as the router encoded it: the journal stores what the router read back', () => {
    const packr = new Packr({ useRecords: false, moreTypes: false });
    const order = { node_order_id: 'ord_1', client_id: 'c', status: 'RUNNING', qty_1e8: 123_456_789, children: [{ child_id: 'ord_1-1', fee_1e9: 0 }], tca: null };
    const w = new JournalFrameWriter();
    w.order('c', 'live', 'ord_1', 'RUNNING', 'ACCEPTED', packr.pack(order));
    w.fill('c', 'live', 2 ** 53 - 1, packr.pack({ id: 2 ** 53 - 1 }));
    const read: JournalRecord[] = [];
    readJournalFrame(Buffer.from(w.finish()), (r) => read.push(r));
    const [o, f] = read;
    assert.ok(o?.kind === 'order' && f?.kind === 'fill');
    assert.deepEqual(new Unpackr({ mapsAsObjects: true }).unpack(o.value), order);
    assert.equal(o.previous_status, 'ACCEPTED');
    assert.equal(f.fill_id, 2 ** 53 - 1);
  });
});
