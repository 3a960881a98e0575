import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { hyperliquidActionHash, hyperliquidL1Digest } from '../../actors/edge/live/signing-evm.ts';
import { dec, FakeExchange, isOpen, P, parseDec, Q, type FakeAccount, type FakeOrder, type FakeSymbol, type FakeTrade, type Level } from './exchange-core.ts';
import { FakeVenueServer } from './fake-server.ts';

/**
 * A local Hyperliquid (first perp dex) over the shared fake exchange, one loopback host as the
 * venue's: `POST /info` (meta, metaAndAssetCtxs, l2Book, userRole, userFees, clearinghouseState,
 * orderStatus, frontendOpenOrders, userFillsByTime, fundingHistory, candleSnapshot), `POST
 * /exchange` (order, cancel, cancelByCloid, scheduleCancel) and the WebSocket `/ws` (the
 * greeting, `l2Book` subscriptions answered with `subscriptionResponse` then whole snapshots of
 * 20 levels a side on every change, `ping` answered `pong`).
 *
 * Every exchange action's signer is recovered from its signature with @noble/curves over the
 * venue's L1 hashing (msgpack of the action as parsed from the body, nonce, vault, expiresAfter;
 * the phantom agent under the mainnet source unless `isMainnet` is false), independently of the
 * adapter's ox signing: a signer that is neither an approved agent nor an account is refused
 * with the venue's `User or API Wallet 0x... does not exist.`, a nonce seen before with `Invalid
 * nonce: duplicate nonce ...` (both as public clients recorded them). Answers are in the docs'
 * shapes (HTTP 200 and `{"status":"ok"|"err", "response"}` for actions; 422 with the venue's
 * text for a body it cannot read); oids and tids are bare u64 JSON numbers.
 *
 * A perp account is the core's spot account read as one: USDC is the collateral, the coin's
 * balance the position (buys only: the core sells only what is held), equity = USDC + size x
 * mark, margin = notional / 20, withdrawable the rest. Fees are taken in USDC.
 */

/** Hyperliquid's ids are u64; realistic magnitudes, still exact as JSON numbers. */
const OID_BASE = 77_738_308_000;
const TID_BASE = 118_906_512_000_000;
const LEVERAGE = 20;
const BOOK_LEVELS = 20;
const HOUR_MS = 3_600_000;
/** "The time must be at least 5 seconds after the current time"; "The max number of triggers per day is 10." */
const SCHEDULE_MIN_LEAD_MS = 5_000;
const SCHEDULE_MAX_TRIGGERS = 10;

/** Decimal text as Hyperliquid writes it: trailing zeros dropped, one decimal kept (`95001.0`, `0.15`, `-0.0003`). */
const num = (value: number, scale: number): string => (value < 0 ? `-${num(-value, scale)}` : dec(value, scale).replace(/0+$/, '').replace(/\.$/, '.0'));
/** USD figures of the clearinghouse (1e8 units) at 6 places, as the venue writes them, rounded toward zero. */
const usd = (v_1e8: number): string => (v_1e8 < 0 ? `-${usd(-v_1e8)}` : dec(Math.floor(v_1e8 / 100) * 100, Q).slice(0, -2));

export interface FakeCoin extends FakeSymbol {
  szDecimals: number;
  maxLeverage: number;
}

/** One settled funding as `fundingHistory` answers it, and the hourly close at its instant. */
export interface FakeFunding {
  coin: string;
  /** the whole hour it settled at, ms */
  instant_ms: number;
  fundingRate: string;
  premium: string;
  /** the hourly candle's close ending at the instant, decimal text */
  close: string;
}

export class HyperliquidFake extends FakeVenueServer {
  readonly exchange: FakeExchange;
  /** Knobs. */
  swallowOrderAnswers = 0;
  /** the source the phantom agent is recovered under ("a" mainnet, "b" testnet) */
  isMainnet = true;
  /** settled fundings served by `fundingHistory` and `candleSnapshot` */
  readonly fundings: FakeFunding[] = [];
  /** each coin's asset context (`metaAndAssetCtxs`); mark, oracle and mid default to the book's mid */
  readonly ctx = new Map<string, { funding: string; premium: string; openInterest: string; markPx?: string; oraclePx?: string }>();
  /** Counters a test reads. */
  readonly seen = { requests: 0, actions: 0, orders: 0, unknownSigners: 0, nonceErrors: 0, lookupsByCloid: 0, cancels: 0, scheduleCancels: 0, subscribes: 0, fundingReads: 0 };
  /** the last order action's body as received */
  lastOrder: { action: { orders: Record<string, unknown>[] }; nonce: number; expiresAfter?: number } | undefined;
  /** the dead man's switch of each account: the time it trips at */
  readonly scheduled = new Map<string, number>();
  /** orders the dead man's switch cancelled (status `scheduledCancel`) */
  private readonly switchCancelled = new Set<FakeOrder>();
  private triggers = 0;
  private readonly coins: FakeCoin[];
  /** the perp universe: a coin that is not one of our symbols first, so the asset index is not the list's */
  private readonly universe: { name: string; szDecimals: number; maxLeverage: number }[];
  private readonly agents = new Map<string, string>();
  private readonly nonces = new Map<string, Set<number>>();
  private readonly bookTime = new Map<string, number>();
  /** every order placed, as the core keeps it (the core lists open orders only) */
  private readonly placed: FakeOrder[] = [];

  /** `coins`: `symbol` is the coin (`BTC`), quote USDC. `accounts`: `apiKey` is the master address, lowercase. */
  constructor(coins: FakeCoin[], accounts: FakeAccount[]) {
    super('/ws');
    this.coins = coins;
    this.universe = [{ name: 'kPEPE', szDecimals: 0, maxLeverage: 10 }, ...coins.map((c) => ({ name: c.symbol, szDecimals: c.szDecimals, maxLeverage: c.maxLeverage }))];
    this.exchange = new FakeExchange(coins, accounts, (s) => this.publish(s));
    this.exchange.feeInQuote = true;
    for (const c of coins) this.ctx.set(c.symbol, { funding: '0.0000125', premium: '0.00031774', openInterest: '688.11' });
  }

  /** `agent` signs for `master` from now (the venue's approveAgent). */
  approveAgent(agent: string, master: string): void {
    this.agents.set(agent.toLowerCase(), master.toLowerCase());
  }

  setLevel(coin: string, side: 'bid' | 'ask', price: number, qty: number): void {
    this.exchange.setLevel(coin, side, price, qty);
  }

  order(master: string, cloid: string): FakeOrder | undefined {
    return this.exchange.order(master.toLowerCase(), cloid.toLowerCase());
  }

  openOrders(master: string): FakeOrder[] {
    return this.exchange.openOrders(master.toLowerCase());
  }

  fillResting(master: string, cloid: string, qty: number): void {
    this.exchange.fillResting(master.toLowerCase(), cloid.toLowerCase(), qty);
  }

  oidOf(o: FakeOrder): number {
    return OID_BASE + o.orderId;
  }

  tidOf(t: FakeTrade): number {
    return TID_BASE + t.id;
  }

  /** `hours` settled fundings of a coin, the last at the latest whole hour, each with its hourly close around `price_1e9`. */
  seedFundings(coin: string, hours: number, price_1e9: number): FakeFunding[] {
    const last = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const rows: FakeFunding[] = [];
    for (let k = hours - 1; k >= 0; k--) {
      const i = hours - k;
      rows.push({ coin, instant_ms: last - k * HOUR_MS, fundingRate: num(12_500 + i * 137, P), premium: num(-300_000 + i * 1_001, P), close: num(price_1e9 + i * 7 * P, P) });
    }
    this.fundings.push(...rows);
    return rows;
  }

  /** Pushes a snapshot older than the last one, with another book (a late frame of an old subscription). */
  pushStale(coin: string): void {
    const s = this.exchange.symbol(coin)!;
    const old = (this.bookTime.get(coin) ?? Date.now()) - 10_000;
    this.broadcast(`l2Book:${coin}`, JSON.stringify({ channel: 'l2Book', data: this.bookJson(s, old, [], s.asks.slice(0, 1)) }));
  }

  // --- WebSocket -------------------------------------------------------------------------------

  /** The plain-text line the venue sends first (websocket_manager.py skips it). */
  protected override onWsConnection(ws: WebSocket): boolean {
    ws.send('Websocket connection established.');
    return true;
  }

  protected onWsMessage(ws: WebSocket, text: string): void {
    let msg: { method?: string; subscription?: { type?: string; coin?: string } };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      ws.send(JSON.stringify({ channel: 'error', data: `Error parsing JSON into valid websocket request: ${text}` }));
      return;
    }
    if (msg.method === 'ping') {
      ws.send('{"channel":"pong"}');
      return;
    }
    const sub = msg.subscription;
    const s = sub?.coin === undefined ? undefined : this.exchange.symbol(sub.coin);
    if ((msg.method !== 'subscribe' && msg.method !== 'unsubscribe') || sub?.type !== 'l2Book' || s === undefined) {
      ws.send(JSON.stringify({ channel: 'error', data: `Invalid subscription ${JSON.stringify(sub ?? null)}` }));
      return;
    }
    const stream = `l2Book:${s.symbol}`;
    const streams = this.subscribers.get(ws)!;
    const subscription = { type: 'l2Book', coin: s.symbol, nSigFigs: null, mantissa: null };
    if (msg.method === 'subscribe') {
      if (streams.has(stream)) {
        ws.send(JSON.stringify({ channel: 'error', data: `Already subscribed: ${JSON.stringify(sub)}` }));
        return;
      }
      this.seen.subscribes++;
      streams.add(stream);
      ws.send(JSON.stringify({ channel: 'subscriptionResponse', data: { method: 'subscribe', subscription } }));
      ws.send(JSON.stringify({ channel: 'l2Book', data: this.bookJson(s, this.nextBookTime(s.symbol)) }));
    } else {
      if (!streams.delete(stream)) {
        ws.send(JSON.stringify({ channel: 'error', data: `Already unsubscribed: ${JSON.stringify(sub)}` }));
        return;
      }
      ws.send(JSON.stringify({ channel: 'subscriptionResponse', data: { method: 'unsubscribe', subscription } }));
    }
  }

  /** Every change pushes the whole book again: `l2Book` has no deltas. */
  private publish(s: FakeSymbol): void {
    this.broadcast(`l2Book:${s.symbol}`, JSON.stringify({ channel: 'l2Book', data: this.bookJson(s, this.nextBookTime(s.symbol)) }));
  }

  private nextBookTime(coin: string): number {
    const t = Math.max(Date.now(), (this.bookTime.get(coin) ?? 0) + 1);
    this.bookTime.set(coin, t);
    return t;
  }

  private bookJson(s: FakeSymbol, time: number, bids: Level[] = s.bids, asks: Level[] = s.asks): Record<string, unknown> {
    const side = (levels: Level[]) => levels.slice(0, BOOK_LEVELS).map((l) => ({ px: num(l.price, P), sz: num(l.qty, Q), n: 1 }));
    return { coin: s.symbol, time, levels: [side(bids), side(asks)] };
  }

  // --- HTTP ------------------------------------------------------------------------------------

  protected async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.seen.requests++;
    const text = await FakeVenueServer.body(req);
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const unreadable = () => {
      res.writeHead(422, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Failed to deserialize the JSON body into the target type');
    };
    if (req.method !== 'POST' || (req.url !== '/info' && req.url !== '/exchange')) {
      res.writeHead(404);
      res.end();
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return unreadable();
    }
    if (req.url === '/exchange') return this.onExchange(body, send, res, unreadable);
    const answer = this.info(body);
    if (answer === undefined) return unreadable();
    send(answer);
  }

  private info(body: Record<string, unknown>): unknown {
    const user = typeof body['user'] === 'string' ? body['user'].toLowerCase() : '';
    switch (body['type']) {
      case 'meta':
        return this.meta();
      case 'metaAndAssetCtxs':
        return [this.meta(), this.universe.map((u) => this.assetCtx(u.name))];
      case 'l2Book': {
        const s = this.exchange.symbol(String(body['coin']));
        return s === undefined ? null : this.bookJson(s, this.bookTime.get(s.symbol) ?? Date.now());
      }
      case 'userRole': {
        const master = this.agents.get(user);
        if (master !== undefined) return { role: 'agent', data: { user: master } };
        return this.exchange.account(user) !== undefined ? { role: 'user' } : { role: 'missing' };
      }
      case 'userFees': {
        const rate = num(this.exchange.commissionBps * 100_000, P);
        return {
          dailyUserVlm: [],
          feeSchedule: { cross: '0.00045', add: '0.00015', spotCross: '0.0007', spotAdd: '0.0004', tiers: { vip: [], mm: [] }, referralDiscount: '0.04', stakingDiscountTiers: [] },
          userCrossRate: rate,
          userAddRate: rate,
          userSpotCrossRate: '0.0007',
          userSpotAddRate: '0.0004',
          activeReferralDiscount: '0.0',
          trial: null,
          feeTrialReward: '0.0',
          nextTrialAvailableTimestamp: null,
          stakingLink: null,
          activeStakingDiscount: { bpsOfMaxSupply: '0.0', discount: '0.0' },
        };
      }
      case 'clearinghouseState':
        return this.clearinghouse(user);
      case 'orderStatus': {
        const ref = body['oid'];
        if (typeof ref === 'string') this.seen.lookupsByCloid++;
        const o = typeof ref === 'number' ? this.exchange.orderById(user, ref - OID_BASE) : typeof ref === 'string' ? this.exchange.order(user, ref.toLowerCase()) : undefined;
        if (o === undefined) return { status: 'unknownOid' };
        return { status: 'order', order: { order: this.orderJson(o), status: this.statusOf(o), statusTimestamp: Date.now() } };
      }
      case 'frontendOpenOrders':
        return this.exchange.openOrders(user).map((o) => this.orderJson(o));
      case 'userFillsByTime': {
        const start = Number(body['startTime']);
        const end = typeof body['endTime'] === 'number' ? body['endTime'] : Date.now();
        if (!Number.isSafeInteger(start)) return undefined;
        return this.tradesOf(user)
          .filter(({ t }) => t.time >= start && t.time <= end)
          .slice(0, 2_000)
          .map(({ t, o }) => this.fillJson(t, o));
      }
      case 'fundingHistory': {
        this.seen.fundingReads++;
        const start = Number(body['startTime']);
        const end = typeof body['endTime'] === 'number' ? body['endTime'] : Date.now();
        return this.fundings
          .filter((f) => f.coin === body['coin'])
          .map((f) => ({ coin: f.coin, fundingRate: f.fundingRate, premium: f.premium, time: f.instant_ms + 48 }))
          .filter((r) => r.time >= start && r.time <= end)
          .sort((a, b) => a.time - b.time)
          .slice(0, 500);
      }
      case 'candleSnapshot': {
        const r = body['req'] as { coin?: string; interval?: string; startTime?: number; endTime?: number } | undefined;
        if (r?.interval !== '1h') return [];
        return this.fundings
          .filter((f) => f.coin === r.coin && f.instant_ms - HOUR_MS >= (r.startTime ?? 0) && f.instant_ms - HOUR_MS <= (r.endTime ?? Date.now()))
          .map((f) => ({ T: f.instant_ms - 1, c: f.close, h: f.close, i: '1h', l: f.close, n: 12, o: f.close, s: f.coin, t: f.instant_ms - HOUR_MS, v: '1.5' }));
      }
      default:
        return undefined;
    }
  }

  private meta(): Record<string, unknown> {
    return { universe: this.universe, marginTables: [[50, { description: '', marginTiers: [{ lowerBound: '0.0', maxLeverage: 50 }] }]], collateralToken: 0 };
  }

  private assetCtx(coin: string): Record<string, unknown> {
    const s = this.exchange.symbol(coin);
    const ctx = this.ctx.get(coin) ?? { funding: '0.0', premium: '0.0', openInterest: '0.0' };
    const mid = s === undefined ? 0 : this.midOf(s);
    const mark = ctx.markPx ?? num(mid, P);
    return { dayNtlVlm: '1169046.29406', funding: ctx.funding, impactPxs: [mark, mark], markPx: mark, midPx: mid > 0 ? num(mid, P) : null, openInterest: ctx.openInterest, oraclePx: ctx.oraclePx ?? mark, premium: ctx.premium, prevDayPx: mark };
  }

  private midOf(s: FakeSymbol): number {
    const bid = s.bids[0]?.price;
    const ask = s.asks[0]?.price;
    return bid !== undefined && ask !== undefined ? Math.round((bid + ask) / 2) : (bid ?? ask ?? 0);
  }

  /** The perp account of `user`: equity = USDC + size x mark; margin = notional / LEVERAGE (positions and resting orders). */
  private clearinghouse(user: string): Record<string, unknown> {
    const account = this.exchange.account(user);
    const usdc = account?.balances['USDC'] ?? { free: 0, locked: 0 };
    let value = usdc.free + usdc.locked;
    let margin = 0;
    let notional = 0;
    const positions: Record<string, unknown>[] = [];
    for (const c of this.coins) {
      const held = account?.balances[c.base];
      const szi = (held?.free ?? 0) + (held?.locked ?? 0);
      if (szi === 0) continue;
      const mark = this.midOf(c);
      const posValue = Math.round((Math.abs(szi) * mark) / P);
      const entry = this.entryOf(user, c.symbol);
      const pnl = Math.round((szi * (mark - entry)) / P);
      const used = Math.ceil(posValue / LEVERAGE);
      value += Math.round((szi * mark) / P);
      margin += used;
      notional += posValue;
      positions.push({
        type: 'oneWay',
        position: {
          coin: c.symbol,
          cumFunding: { allTime: '0.0', sinceChange: '0.0', sinceOpen: '0.0' },
          entryPx: num(entry, P),
          leverage: { type: 'cross', value: LEVERAGE },
          liquidationPx: null,
          marginUsed: usd(used),
          maxLeverage: c.maxLeverage,
          positionValue: usd(posValue),
          returnOnEquity: '0.0',
          szi: num(szi, Q),
          unrealizedPnl: usd(pnl),
        },
      });
    }
    for (const o of this.exchange.openOrders(user)) margin += Math.ceil(Math.round(((o.origQty - o.executedQty) * o.price) / P) / LEVERAGE);
    const summary = { accountValue: usd(value), totalMarginUsed: usd(margin), totalNtlPos: usd(notional), totalRawUsd: usd(usdc.free + usdc.locked) };
    return { assetPositions: positions, crossMaintenanceMarginUsed: usd(Math.ceil(margin / 2)), crossMarginSummary: summary, marginSummary: summary, time: Date.now(), withdrawable: usd(Math.max(0, value - margin)) };
  }

  /** The average entry of the position built by `user`'s fills on `coin` (buys only, as the core trades perps). */
  private entryOf(user: string, coin: string): number {
    let qty = 0;
    let cost = 0;
    for (const { t, o } of this.tradesOf(user)) {
      if (o.symbol !== coin || o.side !== 'BUY') continue;
      qty += t.qty;
      cost += t.qty * t.price;
    }
    return qty === 0 ? 0 : Math.round(cost / qty);
  }

  private tradesOf(user: string): { t: FakeTrade; o: FakeOrder }[] {
    const out: { t: FakeTrade; o: FakeOrder }[] = [];
    for (const o of this.placed) if (o.apiKey === user) for (const t of this.exchange.tradesOf(o.orderId)) out.push({ t, o });
    return out.sort((a, b) => a.t.time - b.t.time || a.t.id - b.t.id);
  }

  private statusOf(o: FakeOrder): string {
    if (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED') return 'open';
    if (o.status === 'FILLED') return 'filled';
    if (o.status === 'CANCELED') return this.switchCancelled.has(o) ? 'scheduledCancel' : 'canceled';
    return o.executedQty > 0 ? 'canceled' : 'iocCancelRejected';
  }

  private orderJson(o: FakeOrder): Record<string, unknown> {
    return {
      coin: o.symbol,
      side: o.side === 'BUY' ? 'B' : 'A',
      limitPx: num(o.price, P),
      sz: num(o.status === 'FILLED' ? 0 : o.origQty - o.executedQty, Q),
      oid: this.oidOf(o),
      timestamp: o.transactTime,
      triggerCondition: 'N/A',
      isTrigger: false,
      triggerPx: '0.0',
      children: [],
      isPositionTpsl: false,
      reduceOnly: false,
      orderType: 'Limit',
      origSz: num(o.origQty, Q),
      tif: o.timeInForce === 'IOC' ? 'Ioc' : 'Gtc',
      cloid: o.clientOrderId.startsWith('0x') ? o.clientOrderId : null,
    };
  }

  private fillJson(t: FakeTrade, o: FakeOrder): Record<string, unknown> {
    const buy = o.side === 'BUY';
    const row: Record<string, unknown> = {
      closedPnl: '0.0',
      coin: o.symbol,
      crossed: !t.isMaker,
      dir: buy ? 'Open Long' : 'Close Long',
      hash: `0x${t.id.toString(16).padStart(64, '0')}`,
      oid: this.oidOf(o),
      px: num(t.price, P),
      side: buy ? 'B' : 'A',
      startPosition: '0.0',
      sz: num(t.qty, Q),
      time: t.time,
      fee: num(t.commission, Q),
      feeToken: 'USDC',
      tid: this.tidOf(t),
    };
    if (o.clientOrderId.startsWith('0x')) row['cloid'] = o.clientOrderId;
    return row;
  }

  // --- exchange actions ------------------------------------------------------------------------

  private onExchange(body: Record<string, unknown>, send: (body: unknown) => void, res: ServerResponse, unreadable: () => void): void {
    this.seen.actions++;
    const action = body['action'] as Record<string, unknown> | undefined;
    const nonce = body['nonce'];
    const signature = body['signature'] as { r?: unknown; s?: unknown; v?: unknown } | undefined;
    const vault = typeof body['vaultAddress'] === 'string' ? body['vaultAddress'] : null;
    const expiresAfter = typeof body['expiresAfter'] === 'number' ? body['expiresAfter'] : null;
    if (typeof action !== 'object' || action === null || typeof nonce !== 'number' || typeof signature?.r !== 'string' || typeof signature.s !== 'string' || (signature.v !== 27 && signature.v !== 28)) return unreadable();
    const err = (response: string) => send({ status: 'err', response });
    const signer = this.recover(action, nonce, vault, expiresAfter, { r: signature.r, s: signature.s, v: signature.v });
    const master = signer === undefined ? undefined : (this.agents.get(signer) ?? (this.exchange.account(signer) !== undefined ? signer : undefined));
    if (master === undefined) {
      this.seen.unknownSigners++;
      return err(`User or API Wallet ${signer ?? '0x0000000000000000000000000000000000000000'} does not exist.`);
    }
    const used = this.nonces.get(signer!) ?? new Set<number>();
    if (used.has(nonce)) {
      this.seen.nonceErrors++;
      return err(`Invalid nonce: duplicate nonce ${nonce}`);
    }
    used.add(nonce);
    this.nonces.set(signer!, used);
    // Not the docs' text (they name the field only): an expired action is refused whole.
    if (expiresAfter !== null && expiresAfter < Date.now()) return err(`Action expired at ${expiresAfter}`);
    // Vaults are not modelled: an action for one acts on nothing this fake holds.
    if (vault !== null) return err(`Vault not registered: ${vault.toLowerCase()}`);
    const account = this.exchange.account(master)!;
    switch (action['type']) {
      case 'order':
        return this.placeOrders(account, body as { action: { orders: Record<string, unknown>[] }; nonce: number; expiresAfter?: number }, send, res);
      case 'cancelByCloid': {
        const cancels = action['cancels'] as { asset: number; cloid: string }[];
        return send({ status: 'ok', response: { type: 'cancel', data: { statuses: cancels.map((c) => this.cancelOne(account, c.asset, this.exchange.order(master, String(c.cloid).toLowerCase()))) } } });
      }
      case 'cancel': {
        const cancels = action['cancels'] as { a: number; o: number }[];
        return send({ status: 'ok', response: { type: 'cancel', data: { statuses: cancels.map((c) => this.cancelOne(account, c.a, this.exchange.orderById(master, c.o - OID_BASE))) } } });
      }
      case 'scheduleCancel':
        return this.scheduleCancel(account, action['time'], send);
      default:
        return unreadable();
    }
  }

  /**
   * The signer of an L1 action: the phantom agent's digest over the action as parsed (its keys
   * in the order sent), recovered from r, s and v; undefined when no key signs it.
   */
  private recover(action: object, nonce: number, vault: string | null, expiresAfter: number | null, signature: { r: string; s: string; v: 27 | 28 }): string | undefined {
    try {
      const digest = hyperliquidL1Digest(hyperliquidActionHash(action, nonce, vault, expiresAfter), this.isMainnet);
      const sig = new secp256k1.Signature(BigInt(signature.r), BigInt(signature.s), signature.v - 27);
      const point = sig.recoverPublicKey(Buffer.from(digest.slice(2), 'hex'));
      return `0x${Buffer.from(keccak_256(point.toBytes(false).slice(1)).slice(12)).toString('hex')}`;
    } catch {
      return undefined;
    }
  }

  private placeOrders(account: FakeAccount, body: { action: { orders: Record<string, unknown>[] }; nonce: number; expiresAfter?: number }, send: (body: unknown) => void, res: ServerResponse): void {
    this.lastOrder = body;
    const statuses = body.action.orders.map((o) => {
      this.seen.orders++;
      return this.placeOne(account, o);
    });
    if (this.swallowOrderAnswers > 0) {
      this.swallowOrderAnswers--;
      res.on('close', () => undefined);
      return;
    }
    send({ status: 'ok', response: { type: 'order', data: { statuses } } });
  }

  /** One order of an `order` action: its status as the venue writes it (error-responses' texts, `asset=` appended). */
  private placeOne(account: FakeAccount, o: Record<string, unknown>): unknown {
    const asset = Number(o['a']);
    const coin = this.universe[asset]?.name;
    const s = coin === undefined ? undefined : this.exchange.symbol(coin);
    const u = this.universe[asset];
    const tif = (o['t'] as { limit?: { tif?: string } } | undefined)?.limit?.tif;
    const p = String(o['p']);
    const sz = String(o['s']);
    const price = parseDec(p, P);
    const qty = parseDec(sz, Q);
    if (s === undefined || u === undefined || (tif !== 'Ioc' && tif !== 'Gtc') || typeof o['b'] !== 'boolean' || !(qty > 0) || !(price > 0)) return { error: `Order has invalid asset or terms. asset=${asset}` };
    if (!validPrice(p, u.szDecimals)) return { error: `Price must be divisible by tick size. asset=${asset}` };
    if ((sz.split('.')[1] ?? '').length > u.szDecimals) return { error: `Order has invalid size. asset=${asset}` };
    if (BigInt(qty) * BigInt(price) < 10n * BigInt(P) * BigInt(Q)) return { error: `Order must have minimum value of $10. asset=${asset}` };
    const cloid = typeof o['c'] === 'string' ? o['c'].toLowerCase() : `oid-${this.seen.orders}`;
    const placed = this.exchange.place(account, { symbol: s.symbol, side: o['b'] ? 'BUY' : 'SELL', type: 'LIMIT', timeInForce: tif === 'Ioc' ? 'IOC' : 'GTC', qty, price, clientOrderId: cloid });
    if (!placed.ok) return { error: placed.why === 'insufficient' ? `Insufficient margin to place order. asset=${asset}` : `Order has invalid asset or terms. asset=${asset}` };
    const order = placed.order;
    this.placed.push(order);
    const ids = { oid: this.oidOf(order), ...(cloid.startsWith('0x') ? { cloid } : {}) };
    if (order.executedQty === 0 && tif === 'Ioc') return { error: `Order could not immediately match against any resting orders. asset=${asset}` };
    if (isOpen(order)) return { resting: ids };
    const avg = Math.round(placed.fills.reduce((sum, f) => sum + f.price * f.qty, 0) / order.executedQty);
    return { filled: { totalSz: num(order.executedQty, Q), avgPx: num(avg, P), ...ids } };
  }

  private cancelOne(account: FakeAccount, asset: number, o: FakeOrder | undefined): unknown {
    this.seen.cancels++;
    if (o === undefined || !isOpen(o) || o.symbol !== this.universe[asset]?.name) return { error: 'Order was never placed, already canceled, or filled.' };
    this.exchange.cancel(account, o);
    return 'success';
  }

  /** The dead man's switch: armed at `time` (at least 5 s ahead), removed without one; it trips at most 10 times a day. */
  private scheduleCancel(account: FakeAccount, time: unknown, send: (body: unknown) => void): void {
    this.seen.scheduleCancels++;
    const master = account.apiKey;
    if (time === undefined) {
      this.scheduled.delete(master);
      return send({ status: 'ok', response: { type: 'default' } });
    }
    // Not the docs' texts (they state the rules only).
    if (typeof time !== 'number' || time < Date.now() + SCHEDULE_MIN_LEAD_MS) return send({ status: 'err', response: 'Scheduled cancel time too early, must be at least 5 seconds from now.' });
    if (this.triggers >= SCHEDULE_MAX_TRIGGERS) return send({ status: 'err', response: 'Too many scheduled cancel triggers today.' });
    this.scheduled.set(master, time);
    setTimeout(() => {
      if (this.scheduled.get(master) !== time) return;
      this.scheduled.delete(master);
      this.triggers++;
      for (const o of this.exchange.openOrders(master)) {
        this.exchange.cancel(account, o);
        this.switchCancelled.add(o);
      }
    }, time - Date.now()).unref();
    send({ status: 'ok', response: { type: 'default' } });
  }
}

/** tick-and-lot-size: an integer price always; else at most 5 significant figures and 6 - szDecimals decimals. */
function validPrice(text: string, szDecimals: number): boolean {
  const [whole = '', frac = ''] = text.split('.');
  if (frac === '') return true;
  if (frac.length > 6 - szDecimals) return false;
  return (whole + frac).replace(/^0+/, '').length <= 5;
}
