import { hash32, hashNormal, hashUniform } from '../rng.ts';
import { underlyingSpec } from '../catalog.ts';
import {
  CITIES, CITY_NAMES, COMPANIES, COUNTRIES, FIRST_NAMES, LAST_NAMES, LEAGUES, longDate, MONTH_NAMES, PRODUCTS,
  TEAM_NAMES, TEAM_TOWNS, pick, dollars, tickerCode,
} from './names.ts';

/**
 * The real-world questions of the simulated catalog, before any venue lists them: what is asked,
 * its candidates, how likely each is at the start, and who wins. A venue projects a world event
 * into its own ids and wording (`world.ts`).
 */
export interface WorldCandidate {
  name: string;
  /** A pre-allocated slot with a generic name, never a real candidate. */
  placeholder: boolean;
  /** Starting log-odds (binary) or softmax weight (candidates). */
  x0: number;
  /** Ticker-style market suffix: `T100000`, `EMOR`. */
  code: string;
}

export type ThemeId = 'crypto' | 'fed' | 'cpi' | 'weather' | 'tech' | 'game' | 'election' | 'championship' | 'updown';

export interface WorldEvent {
  /** Stable key: `L<i>` for long-dated events, `F<j>` for the fast up/down series. */
  key: string;
  theme: ThemeId;
  /** The question as the token-style venue asks it (and the ticker-style venue unless inverted). */
  title: string;
  /** The same question with YES meaning the opposite, when the ticker-style venue inverts it. */
  inverted_title: string | null;
  rules: string;
  tags: string[];
  /** The ticker-style series: `KXBTC`. */
  series: string;
  multi: boolean;
  candidates: WorldCandidate[];
  /** Index of the winning candidate; for a binary event 0 = YES wins, -1 = NO wins. */
  winner: number;
  /** For up/down markets: the underlying whose final price against its anchor decides. */
  underlying: string | null;
}

type LongTheme = Exclude<ThemeId, 'updown'>;

/** Weights of the long-dated themes (crypto thresholds twice: first and last slice of the draw). */
const THEMES: readonly [LongTheme, number][] = [
  ['crypto', 0.22], ['fed', 0.07], ['cpi', 0.07], ['weather', 0.13], ['tech', 0.13], ['game', 0.12], ['election', 0.1], ['championship', 0.08],
  ['crypto', 0.08],
];

const CRYPTO = ['BTC', 'ETH', 'SOL', 'XRP', 'DOGE'] as const;
const CRYPTO_NAMES: Readonly<Record<string, string>> = { BTC: 'Bitcoin', ETH: 'Ethereum', SOL: 'Solana', XRP: 'XRP', DOGE: 'Dogecoin' };

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

function themeOf(seed: number, key: number): LongTheme {
  let u = hashUniform(seed, key, 0x7e);
  for (const [theme, weight] of THEMES) {
    if (u < weight) return theme;
    u -= weight;
  }
  return 'crypto';
}

/** A round threshold near a price: 2 significant digits. */
function roundThreshold(x: number): number {
  const digits = Math.floor(Math.log10(x)) - 1;
  return Number((Math.round(x / 10 ** digits) * 10 ** digits).toFixed(Math.max(0, -digits)));
}

function binary(key: string, theme: ThemeId, seed: number, k: number, title: string, inverted: string | null, rules: string, tags: string[], series: string, code: string): WorldEvent {
  const x0 = 1.6 * hashNormal(seed, k, 0xb1);
  return {
    key, theme, title, inverted_title: inverted, rules, tags, series, multi: false,
    candidates: [{ name: 'Yes', placeholder: false, x0, code }],
    winner: hashUniform(seed, k, 0xb2) < sigmoid(x0) ? 0 : -1,
    underlying: null,
  };
}

function multi(key: string, theme: ThemeId, seed: number, k: number, title: string, rules: string, tags: string[], series: string, names: string[], placeholders: number): WorldEvent {
  const candidates: WorldCandidate[] = names.map((name, i) => ({
    name, placeholder: false, x0: 1.3 * hashNormal(seed, k, 0xc1, i), code: tickerCode(name),
  }));
  for (let p = 0; p < placeholders; p++) {
    const name = p < 26 ? `Person ${String.fromCharCode(65 + p)}` : `Person ${p + 1}`;
    candidates.push({ name, placeholder: true, x0: -9, code: `P${p + 1}` });
  }
  // Ticker suffixes must be unique within the event.
  const seen = new Set<string>();
  for (const c of candidates) {
    let code = c.code;
    for (let n = 2; seen.has(code); n++) code = `${c.code}${n}`;
    c.code = code;
    seen.add(code);
  }
  // The winner is drawn from the starting odds of the real candidates.
  const weights = candidates.map((c) => (c.placeholder ? 0 : Math.exp(c.x0)));
  let u = hashUniform(seed, k, 0xc2) * weights.reduce((a, b) => a + b, 0);
  let winner = 0;
  for (; winner < weights.length - 1 && u >= weights[winner]!; winner++) u -= weights[winner]!;
  return { key, theme, title, inverted_title: null, rules, tags, series, multi: true, candidates, winner, underlying: null };
}

function distinctNames(count: number, make: (i: number) => string): string[] {
  const names = new Set<string>();
  for (let i = 0; names.size < count && i < count * 8; i++) names.add(make(i));
  return [...names];
}

/** The long-dated world event `L<i>`, closing at `close_ms`. */
export function longEvent(seed: number, i: number, close_ms: number): WorldEvent {
  const k = hash32(seed, i >>> 0, Math.floor(i / 2 ** 32), 0x10);
  const key = `L${i}`;
  const theme = themeOf(seed, k);
  const date = longDate(close_ms);
  switch (theme) {
    case 'crypto': {
      const asset = pick(CRYPTO, seed, k, 1);
      const ref = underlyingSpec(asset)?.ref_usd ?? 1;
      const threshold = roundThreshold(ref * (0.75 + 0.6 * hashUniform(seed, k, 2)));
      const name = CRYPTO_NAMES[asset] ?? asset;
      return binary(key, theme, seed, k, `Will ${name} be above ${dollars(threshold)} on ${date}?`, `Will ${name} be below ${dollars(threshold)} on ${date}?`,
        `Resolves Yes if the ${name} reference price is above ${dollars(threshold)} at 17:00 UTC on ${date}.`, ['crypto', name.toLowerCase()], `KX${asset}`, `T${threshold}`);
    }
    case 'fed': {
      const month = MONTH_NAMES[new Date(close_ms).getUTCMonth()]!;
      return binary(key, theme, seed, k, `Will the Fed cut rates at its ${month} ${new Date(close_ms).getUTCFullYear()} meeting?`, `Will the Fed hold or raise rates at its ${month} ${new Date(close_ms).getUTCFullYear()} meeting?`,
        'Resolves Yes if the FOMC lowers the target range at the named meeting.', ['economy', 'fed'], 'KXFEDCUT', 'CUT');
    }
    case 'cpi': {
      const level = (2 + hash32(seed, k, 3) % 20 / 10).toFixed(1);
      const month = MONTH_NAMES[new Date(close_ms).getUTCMonth()]!;
      return binary(key, theme, seed, k, `Will ${month} CPI inflation come in above ${level}%?`, null,
        `Resolves Yes if the year-over-year CPI print for ${month} exceeds ${level}%.`, ['economy', 'inflation'], 'KXCPI', `T${level}`);
    }
    case 'weather': {
      const city = pick(CITIES, seed, k, 4);
      const temp = 40 + (hash32(seed, k, 5) % 50);
      return binary(key, theme, seed, k, `Will the high temperature in ${CITY_NAMES[city]} exceed ${temp}°F on ${date}?`, null,
        `Resolves Yes if the official high in ${CITY_NAMES[city]} on ${date} is above ${temp}°F.`, ['weather', 'climate'], `KXHIGH${city}`, `T${temp}`);
    }
    case 'tech': {
      const company = pick(COMPANIES, seed, k, 6);
      const product = pick(PRODUCTS, seed, k, 7);
      return binary(key, theme, seed, k, `Will ${company} release ${product} by ${date}?`, null,
        `Resolves Yes if ${company} publicly releases ${product} on or before ${date}.`, ['tech', 'companies'], `KX${tickerCode(company)}`, 'REL');
    }
    case 'game': {
      const home = `${pick(TEAM_TOWNS, seed, k, 8)} ${pick(TEAM_NAMES, seed, k, 9)}`;
      const town = TEAM_TOWNS.indexOf(home.slice(0, home.lastIndexOf(' ')) as (typeof TEAM_TOWNS)[number]);
      const away = `${TEAM_TOWNS[(town + 1 + (hash32(seed, k, 10) % (TEAM_TOWNS.length - 1))) % TEAM_TOWNS.length]} ${pick(TEAM_NAMES, seed, k, 11)}`;
      return binary(key, theme, seed, k, `Will the ${home} beat the ${away} on ${date}?`, `Will the ${away} beat or tie the ${home} on ${date}?`,
        `Resolves Yes if the ${home} win the game scheduled for ${date}.`, ['sports', 'games'], 'KXGAME', tickerCode(home));
    }
    case 'election': {
      const country = pick(COUNTRIES, seed, k, 12);
      const year = new Date(close_ms).getUTCFullYear();
      const count = 3 + (hash32(seed, k, 13) % 6);
      const names = distinctNames(count, (n) => `${pick(FIRST_NAMES, seed, k, 100 + n)} ${pick(LAST_NAMES, seed, k, 200 + n)}`);
      // Some venues pre-allocate generic slots for candidates not yet known; one in five such
      // events carries the 128 slots the spec's sample event has.
      const slots = hash32(seed, k, 14) % 3 === 0 ? (hash32(seed, k, 15) % 5 === 0 ? 128 - names.length : 4 + (hash32(seed, k, 16) % 9)) : 0;
      return multi(key, theme, seed, k, `${country} Presidential Election ${year}: winner`,
        `Resolves to the candidate certified as winner of the ${year} presidential election of ${country}.`, ['politics', 'elections'], `KXPRES${tickerCode(country).slice(0, 3)}`, names, slots);
    }
    case 'championship': {
      const league = pick(LEAGUES, seed, k, 17);
      const count = 6 + (hash32(seed, k, 18) % 8);
      const names = distinctNames(count, (n) => `${pick(TEAM_TOWNS, seed, k, 300 + n)} ${pick(TEAM_NAMES, seed, k, 400 + n)}`);
      return multi(key, theme, seed, k, `${league} Champion ${new Date(close_ms).getUTCFullYear()}`,
        `Resolves to the team that wins the ${league} final.`, ['sports', 'championships'], `KX${tickerCode(league).slice(0, 4)}`, names, 0);
    }
  }
}

/** The fast up/down event `F<j>` on `underlying`: Up wins when the final price is >= the anchor. */
export function upDownEvent(seed: number, j: number, open_ms: number, close_ms: number): WorldEvent {
  const k = hash32(seed, j >>> 0, Math.floor(j / 2 ** 32), 0x20);
  const asset = pick(['BTC', 'ETH', 'SOL', 'XRP'] as const, seed, k, 1);
  const name = CRYPTO_NAMES[asset] ?? asset;
  const minutes = Math.max(1, Math.round((close_ms - open_ms) / 60_000));
  const title = `${name} Up or Down - ${minutes} min to ${new Date(close_ms).toISOString().slice(11, 16)} UTC ${longDate(close_ms)}`;
  return {
    key: `F${j}`, theme: 'updown', title, inverted_title: null,
    rules: `Resolves Up if the ${name} price at the close is greater than or equal to its price at the open.`,
    tags: ['crypto', 'up-or-down'], series: `KX${asset}UD`, multi: false,
    candidates: [{ name: 'Up', placeholder: false, x0: 0, code: 'UP' }],
    winner: 0, // decided by the underlying's path at the close, not here (`world.ts`)
    underlying: asset,
  };
}
