/**
 * A local Binance to point the service at, for trying LIVE_VENUES without an exchange account:
 * the protocol fake the tests use (test/fakes/binance-fake.ts), with a moving BTCUSDT and
 * ETHUSDT book around the simulated venues' reference prices and one funded demo account.
 *
 *   npm run fake:binance                  # listens on 127.0.0.1:9001 (PORT=... to change)
 *   BTC_PRICE=93800 npm run fake:binance  # the book around another mid (match the simulated venues' quotes)
 *   LIVE_VENUES=binance BINANCE_REST_URL=http://127.0.0.1:9001 BINANCE_WS_URL=ws://127.0.0.1:9001 npm start
 *
 * Loopback only. Every signed request is checked as Binance checks it.
 */
import { BinanceFake, type FakeSymbol } from '../test/fakes/binance-fake.ts';

const PORT = Number(process.env['PORT'] ?? 9001);
const KEY = 'demo-binance-key-0123456789';
const SECRET = 'demo-binance-secret-0123456789abcdef';
const P = 1e9;
const Q = 1e8;

/** Twenty levels a side, one dollar (BTC) or ten cents (ETH) apart, around `mid`. */
function book(symbol: string, base: string, mid: number, step: number, qty: number): FakeSymbol {
  const bids = Array.from({ length: 20 }, (_, i) => ({ price: mid - (i + 1) * step, qty: qty * (1 + (i % 4)) }));
  const asks = Array.from({ length: 20 }, (_, i) => ({ price: mid + (i + 1) * step, qty: qty * (1 + (i % 4)) }));
  return { symbol, base, quote: 'USDT', bids, asks };
}

const price = (name: string, fallback: number) => Math.round(Number(process.env[name] ?? fallback)) * P;
const symbols = [book('BTCUSDT', 'BTC', price('BTC_PRICE', 95_000), 1 * P, 5_000_000), book('ETHUSDT', 'ETH', price('ETH_PRICE', 3_500), P / 10, 100_000_000)];
const fake = new BinanceFake(symbols, [{ apiKey: KEY, secret: SECRET, balances: { USDT: { free: 1_000_000 * Q, locked: 0 }, BTC: { free: 10 * Q, locked: 0 }, ETH: { free: 100 * Q, locked: 0 } } }]);
const { rest, ws } = await fake.listen(PORT);

// The book moves: three levels re-sized every 100 ms, the whole book a step up or down every 2 s.
let tick = 0;
let seed = 7;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
setInterval(() => {
  tick++;
  for (const s of symbols) {
    const step = s.base === 'BTC' ? P : P / 10;
    const unit = s.base === 'BTC' ? 5_000_000 : 100_000_000;
    for (let k = 0; k < 3; k++) {
      const side = random() < 0.5 ? 'bid' : 'ask';
      const levels = side === 'bid' ? s.bids : s.asks;
      const level = levels[Math.floor(random() * Math.min(10, levels.length))];
      if (level !== undefined) fake.setLevel(s.symbol, side, level.price, Math.max(unit, Math.round(unit * (1 + random() * 4))));
    }
    if (tick % 20 === 0 && s.bids[0] !== undefined && s.asks[0] !== undefined) {
      const up = random() < 0.5;
      if (up) {
        fake.setLevel(s.symbol, 'ask', s.asks[0].price, 0);
        fake.setLevel(s.symbol, 'bid', s.bids[0].price + step, unit * 2);
      } else {
        fake.setLevel(s.symbol, 'bid', s.bids[0].price, 0);
        fake.setLevel(s.symbol, 'ask', s.asks[0].price - step, unit * 2);
      }
    }
  }
}, 100);

console.log(`Binance fake on ${rest} (REST) and ${ws} (stream). Start the service with:

  LIVE_VENUES=binance BINANCE_REST_URL=${rest} BINANCE_WS_URL=${ws} npm start

then store the demo account's credentials for your client:

  curl -X POST http://127.0.0.1:8080/v1/credentials/binance -H "authorization: Bearer $KEY" \\
    -H 'content-type: application/json' -d '{"api_key":"${KEY}","api_secret":"${SECRET}"}'
`);
