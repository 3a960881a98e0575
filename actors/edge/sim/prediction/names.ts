import { hash32 } from '../rng.ts';

/**
 * Words the simulated prediction catalog is written with, and the venues' id shapes. Every
 * draw is a hash of (seed, key, salt), so one event's text never shifts another's.
 */

export const FIRST_NAMES = [
  'Avery', 'Blake', 'Camila', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hiro', 'Imani', 'Jonas', 'Kira', 'Luca',
  'Maya', 'Nikolai', 'Olivia', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tamar', 'Umar', 'Vera', 'Wen', 'Yusuf', 'Zara',
] as const;
export const LAST_NAMES = [
  'Abbott', 'Brennan', 'Castillo', 'Dunmore', 'Eriksen', 'Fairfax', 'Galloway', 'Hartley', 'Ivers', 'Jansen',
  'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Pemberton', 'Quinlan', 'Rasmussen', 'Sandoval',
  'Thornbury', 'Underhill', 'Valdez', 'Whitcombe', 'Yamada', 'Zielinski',
] as const;
export const COUNTRIES = ['Arcadia', 'Borduria', 'Caledonia', 'Drovnia', 'Elbonia', 'Freedonia', 'Genovia', 'Hyrule', 'Latveria', 'Sokovia'] as const;
export const CITIES = ['NY', 'CHI', 'MIA', 'LAX', 'DEN', 'AUS', 'PHL', 'SEA'] as const;
export const CITY_NAMES: Readonly<Record<(typeof CITIES)[number], string>> = {
  NY: 'New York', CHI: 'Chicago', MIA: 'Miami', LAX: 'Los Angeles', DEN: 'Denver', AUS: 'Austin', PHL: 'Philadelphia', SEA: 'Seattle',
};
export const TEAM_TOWNS = ['Harbor City', 'Ridgefield', 'Lakeport', 'Stonebridge', 'Westmere', 'Kingsbury', 'Redwater', 'Northgate', 'Silverton', 'Ashford', 'Brookhaven', 'Cedar Falls', 'Duneview', 'Eastwick', 'Foxhollow', 'Glenrock'] as const;
export const TEAM_NAMES = ['Comets', 'Wolves', 'Mariners', 'Titans', 'Falcons', 'Rangers', 'Owls', 'Stallions', 'Pilots', 'Hornets', 'Bears', 'Storm', 'Vipers', 'Giants', 'Foxes', 'Lancers'] as const;
export const LEAGUES = ['Premier Basketball League', 'National Football Association', 'Continental Hockey League', 'Global Baseball League'] as const;
export const COMPANIES = ['Aperture Labs', 'Blue Summit', 'Cobalt AI', 'Dynamo Motors', 'Evergreen Bio', 'Flux Robotics', 'Granite Cloud', 'Helio Space'] as const;
export const PRODUCTS = ['a new flagship model', 'its first humanoid robot', 'a foldable phone', 'a crewed orbital flight', 'an open-weights model', 'a sub-$25k car'] as const;
export const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

export function pick<T>(list: readonly T[], seed: number, key: number, salt: number): T {
  return list[hash32(seed, key, salt) % list.length]!;
}

/** `will-the-fed-cut-rates` from a title: lowercase ascii words joined by dashes. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/\$/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Ticker letters for a name: `Elena Moreau` -> `EMOR`. */
export function tickerCode(name: string): string {
  const words = name.toUpperCase().replace(/[^A-Z ]/g, '').split(' ').filter((w) => w !== '');
  if (words.length === 1) return words[0]!.slice(0, 6);
  return words[0]!.slice(0, 1) + words[words.length - 1]!.slice(0, 5);
}

/** `26DEC31` for a UTC instant, as ticker-style event tickers date themselves. */
export function tickerDate(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${MONTHS[d.getUTCMonth()]}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** `26NOV24153045` (with the UTC time to the second), for the short markets: one per close. */
export function tickerSecond(ms: number): string {
  return `${tickerDate(ms)}${new Date(ms).toISOString().slice(11, 19).replace(/:/g, '')}`;
}

export function longDate(ms: number): string {
  const d = new Date(ms);
  return `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** A 78-digit decimal id, as conditional-token ids print (a 256-bit integer), from a hash chain. */
export function tokenId(seed: number, key: number, salt: number): string {
  let digits = String(1 + (hash32(seed, key, salt, 0) % 9));
  for (let i = 1; digits.length < 78; i++) digits += String(hash32(seed, key, salt, i) % 1_000_000_000).padStart(9, '0');
  return digits.slice(0, 78);
}

/** `0x` + 64 hex digits. */
export function conditionId(seed: number, key: number): string {
  let hex = '0x';
  for (let i = 0; i < 8; i++) hex += hash32(seed, key, 0xc0, i).toString(16).padStart(8, '0');
  return hex;
}

/** Whole dollars with thousands separators: 100000 -> `$100,000`. */
export function dollars(n: number): string {
  return `$${n.toLocaleString('en-US')}`;
}
