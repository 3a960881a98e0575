/**
 * A ledger checkpoint larger than a ring frame holds (a sandbox account of thousands of
 * positions) crosses to the journal in parts (execution/journal): a router's JournaledOrders
 * sends each part in a frame of its own, the last part shares the frame of the write set's other
 * records, and the journal stage writes the checkpoint whole, byte for byte, once its last part
 * arrives. Parts out of order fail their frame; a worker that died mid-checkpoint leaves nothing
 * the next checkpoint would pick up. Wired in-process: link -> stage -> ack -> link.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Unpackr } from 'msgpackr';
import { JournalFrameWriter } from '../../execution/journal/frame.ts';
import { JournaledOrders } from '../../execution/journal/journaled-orders.ts';
import { JournalLink } from '../../execution/journal/link.ts';
import { decodeJournalAck, JournalFrame, LEDGER_PART_BYTES } from '../../execution/journal/messages.ts';
import { journalStage } from '../../execution/journal/stage.ts';
import { Ledger } from '../../execution/ledger/ledger.ts';
import { Endpoint } from '../../engine/endpoint.ts';
import { createLogger } from '../../engine/log.ts';
import { createControl, createRing, maxPayload } from '../../engine/ring/spsc-ring.ts';
import { TimerQueue } from '../../engine/timers.ts';
import type { OrderStore } from '../../storage/orders.ts';

const RING_MAX_PAYLOAD = maxPayload(1 << 20);

/** The stage over a store that keeps what it is given; `ack`s collected per frame. */
function stage() {
  const ledgers = new Map<string, Buffer>();
  const acks: { sequence: number; failure: string | null }[] = [];
  let onAck: (bytes: Uint8Array) => void = () => {};
  const store = {
    putOrderEncoded: () => {},
    putOrderKey: () => {},
    putFillEncoded: () => {},
    putLedgerEncoded: (client: string, mode: string, value: Uint8Array) => void ledgers.set(`${client}|${mode}`, Buffer.from(value)),
    durable: () => Promise.resolve(),
  } as unknown as OrderStore;
  const { handler } = journalStage(
    store,
    () => undefined,
    (_thread, bytes) => {
      acks.push(decodeJournalAck(bytes, 0, bytes.length));
      onAck(bytes);
    },
    () => {},
  );
  return { ledgers, acks, handler, setOnAck: (f: (bytes: Uint8Array) => void) => (onAck = f) };
}

const flushMicrotasks = () => new Promise((resolve) => setImmediate(resolve));

describe('journal: ledger checkpoints in parts', () => {
  it('a checkpoint of 10,000 rows leaves in frames that each fit the ring, and is stored whole', async () => {
    const s = stage();
    const frames: number[] = [];
    let ackHandler: ((source: number, bytes: Uint8Array, offset: number, length: number) => void) | undefined;
    const pollQueue: (() => void)[] = [];
    const link = new JournalLink({
      sendBinary: (_dest, type, bytes) => {
        assert.equal(type, JournalFrame.WRITE);
        frames.push(bytes.length);
        assert.ok(bytes.length <= RING_MAX_PAYLOAD, `a frame of ${bytes.length} bytes outgrows the ring`);
        // The ring hands over a copy.
        const copy = Buffer.from(bytes);
        s.handler(1, copy, 0, copy.length);
      },
      onBinary: (_type, handler) => void (ackHandler = handler),
      atNextPoll: (fn) => void pollQueue.push(fn),
      schedule: () => () => {},
    });
    s.setOnAck((bytes) => ackHandler!(0, bytes, 0, bytes.length));
    const reader = { refresh: () => {} } as unknown as OrderStore;
    const orders = new JournaledOrders({ clientId: 'c', mode: 'sandbox' }, reader, link);

    const ledger = new Ledger('sandbox');
    for (let i = 0; i < 10_000; i++) {
      const token = `7${String(i).padStart(77, '0')}`;
      ledger.setPosition('polymarket', { kind: 'event_contract', market_slug: token, outcome: 'YES', token_id: token, expiry_ts: null }, 100_000_000, 500_000_000);
    }
    const checkpoint = { snapshot: ledger.snapshot({ withFillIds: false }), watermark: 0 };
    orders.putLedger('c', 'sandbox', checkpoint);
    const done = orders.durable();
    while (pollQueue.length > 0) pollQueue.shift()!();
    await done;
    await flushMicrotasks();

    assert.ok(frames.length > 3, `in parts: ${frames.length} frames`);
    assert.ok(s.acks.every((a) => a.failure === null), 'every frame durable');
    const stored = s.ledgers.get('c|sandbox');
    assert.ok(stored !== undefined && stored.length > 2 * LEDGER_PART_BYTES, `stored ${stored?.length} bytes`);
    const read = new Unpackr({ useRecords: false, mapsAsObjects: true }).unpack(stored) as typeof checkpoint;
    // Compared as text: a failing deepEqual of 10,000 rows would spend a minute on its diff.
    assert.ok(JSON.stringify(read) === JSON.stringify(checkpoint), 'the stored checkpoint is the one the router packed');
    assert.equal(Ledger.fromSnapshot(read.snapshot)?.rowCount, 10_000);
  });

  it('parts out of order fail their frame; a first part drops what a dead worker left; a whole checkpoint stands alone', async () => {
    const s = stage();
    const send = (build: (w: JournalFrameWriter) => void, sequence: number) => {
      const w = new JournalFrameWriter();
      build(w);
      const bytes = Buffer.from(w.finish(sequence));
      s.handler(1, bytes, 0, bytes.length);
    };
    const a = Buffer.from('aaaa');
    const b = Buffer.from('bbbb');
    // A worker died after its first part; its successor starts the checkpoint again.
    send((w) => w.ledgerPart('c', 'sandbox', 0, Buffer.from('zz')), 1);
    send((w) => w.ledgerPart('c', 'sandbox', 0, a), 2);
    send((w) => w.ledger('c', 'sandbox', b, 4), 3);
    // The last part at the wrong offset: the frame fails, nothing is stored.
    send((w) => w.ledgerPart('d', 'live', 0, a), 4);
    send((w) => w.ledger('d', 'live', b, 9), 5);
    // A part whose predecessor never came fails too.
    send((w) => w.ledgerPart('e', 'live', 4, a), 6);
    // A whole checkpoint ignores parts left behind.
    send((w) => w.ledgerPart('f', 'live', 0, a), 7);
    send((w) => w.ledger('f', 'live', b), 8);
    await flushMicrotasks();
    assert.equal(s.ledgers.get('c|sandbox')?.toString(), 'aaaabbbb');
    assert.equal(s.ledgers.has('d|live'), false);
    assert.equal(s.ledgers.get('f|live')?.toString(), 'bbbb');
    const failed = s.acks.filter((x) => x.failure !== null).map((x) => x.sequence).sort();
    assert.deepEqual(failed, [5, 6]);
  });

  it('an endpoint keeps a binary frame the full ring refused as a copy: the buffer it came from is reused at once', () => {
    // The journal's frames come from one reused Buffer; a deferred one used to be a view of it
    // (Buffer#slice), so every deferred frame was sent as the last one written.
    const controls = [createControl(), createControl()];
    const rings = [0, 1].map(() => [0, 1].map(() => createRing(4096)));
    const endpoints = [0, 1].map((thread) => new Endpoint({ thread, workers: 1, control: controls[thread]!, scheduler: new TimerQueue(), log: createLogger('silent') }));
    for (const [src, e] of endpoints.entries()) {
      for (const dst of [0, 1]) {
        e.attachOutbound(dst, rings[src]![dst]!, controls[dst]!);
        e.attachInbound(dst, rings[dst]![src]!);
      }
    }
    const [gateway, worker] = endpoints as [Endpoint, Endpoint];
    const received: string[] = [];
    gateway.onBinary(JournalFrame.WRITE, (_source, bytes, offset, length) => received.push(Buffer.from(bytes.subarray(offset, offset + length)).toString()));
    const scratch = Buffer.alloc(1_000);
    for (let i = 0; i < 10; i++) worker.sendBinary(0, JournalFrame.WRITE, scratch.fill(String(i)));
    for (let k = 0; k < 20; k++) {
      gateway.poll(64);
      worker.poll(64);
    }
    assert.deepEqual(received, Array.from({ length: 10 }, (_, i) => String(i).repeat(1_000)));
  });
});
