import { ok } from '../errors.ts';
import type { operations } from '../index.ts';
import { UsageError, type Flags } from './args.ts';
import { output, type Command, type Context, type Schemas } from './context.ts';
import { table } from './table.ts';

type Venue = operations['storeCredentials']['parameters']['path']['venue'];

/**
 * Where the secret fields are read from: the environment (or stdin), never a flag, whose value
 * lands in shell history and in `ps` output. The venue key id and the token-style venue's
 * addresses identify rather than authorize, so they may be flags too.
 */
export const CREDENTIAL_ENV = {
  apiKey: 'SEQ_VENUE_API_KEY',
  apiSecret: 'SEQ_VENUE_API_SECRET',
  passphrase: 'SEQ_VENUE_PASSPHRASE',
  signerKey: 'SEQ_VENUE_SIGNER_KEY',
} as const;

/**
 * The path names one of ten venues; the service checks which (400 on field `venue`), so the CLI
 * keeps no copy of the list to fall out of date.
 */
const venueOf = (text: string) => text as Venue;

function fromEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** All of stdin, for a PEM or a secret piped in (`--secret-stdin < key.pem`). */
async function readStdin(ctx: Context): Promise<string> {
  if (process.stdin.isTTY === true) ctx.io.stderr('paste the secret, then Ctrl-D on an empty line\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // A trailing newline from `echo` or a paste would break a plain secret's signature (the service refuses it); a PEM allows surrounding whitespace anyway.
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function storeRequest(ctx: Context, flags: Flags): Promise<Schemas['StoreCredentialsReq']> {
  const envKey = fromEnv(CREDENTIAL_ENV.apiKey);
  if (flags['key-id'] !== undefined && envKey !== undefined) throw new UsageError(`the venue key id is given twice: --key-id and ${CREDENTIAL_ENV.apiKey}`);
  const apiKey = flags['key-id'] ?? envKey;
  let apiSecret = fromEnv(CREDENTIAL_ENV.apiSecret);
  if (flags['secret-stdin'] === true) {
    if (apiSecret !== undefined) throw new UsageError(`the secret is given twice: --secret-stdin and ${CREDENTIAL_ENV.apiSecret}`);
    apiSecret = await readStdin(ctx);
    if (apiSecret === '') throw new UsageError('--secret-stdin read nothing from stdin');
  }
  const signer = fromEnv(CREDENTIAL_ENV.signerKey);
  // The token-style venue's signer key is a credential on its own (its L2 key, secret and
  // passphrase are optional); every other venue needs a key id and its secret.
  if (signer === undefined && (apiKey === undefined || apiSecret === undefined)) {
    const missing = [
      ...(apiKey === undefined ? [`the venue key id (--key-id or ${CREDENTIAL_ENV.apiKey})`] : []),
      ...(apiSecret === undefined ? [`its secret (${CREDENTIAL_ENV.apiSecret} or --secret-stdin)`] : []),
    ];
    throw new UsageError(`missing ${missing.join(' and ')}; polymarket takes ${CREDENTIAL_ENV.signerKey} instead`);
  }
  const extra = {
    ...(signer === undefined ? {} : { signer_private_key: signer }),
    ...(flags['proxy-address'] === undefined ? {} : { proxy_address: flags['proxy-address'] }),
    ...(flags.builder === undefined ? {} : { builder: flags.builder }),
  };
  const passphrase = fromEnv(CREDENTIAL_ENV.passphrase);
  return {
    api_key: apiKey ?? '',
    api_secret: apiSecret ?? '',
    ...(passphrase === undefined ? {} : { passphrase }),
    ...(Object.keys(extra).length === 0 ? {} : { extra_json: extra }),
  };
}

const list: Command = {
  path: ['credentials', 'list'],
  args: [],
  options: [],
  summary: "venues with stored credentials, in the mode of the key (never their values)",
  async run(ctx) {
    return output(ctx, ok(await ctx.api.GET('/v1/credentials')), (d) => {
      if (d.venues.length === 0) return 'no venue credentials stored for this key\'s mode\n';
      const unsafe = new Set(d.unsafe);
      const rows = d.venues.map((v) => [v, unsafe.has(v) ? 'ENABLED: grant read and trade only' : 'no']);
      return table(['venue', 'withdrawal'], rows);
    });
  },
};

const set: Command = {
  path: ['credentials', 'set'],
  args: ['<venue>'],
  options: ['key-id', 'secret-stdin', 'proxy-address', 'builder'],
  synopsis: '[--key-id ID] [--secret-stdin] [--proxy-address A] [--builder A]',
  summary:
    `store (or replace) a venue's credentials, encrypted at rest. Secrets only from the environment: ${CREDENTIAL_ENV.apiSecret} (or --secret-stdin for a PEM), ` +
    `${CREDENTIAL_ENV.passphrase} (okx, kucoin; hyperliquid's vault address), ${CREDENTIAL_ENV.signerKey} (polymarket); the key id from --key-id or ${CREDENTIAL_ENV.apiKey}`,
  async run(ctx, [venue], flags) {
    const body = await storeRequest(ctx, flags);
    return output(ctx, ok(await ctx.api.POST('/v1/credentials/{venue}', { params: { path: { venue: venueOf(venue!) } }, body })), (d) => `${d.venue}: credentials ${d.status}\n`);
  },
};

const remove: Command = {
  path: ['credentials', 'delete'],
  args: ['<venue>'],
  options: [],
  summary: "delete a venue's stored credentials",
  async run(ctx, [venue]) {
    return output(ctx, ok(await ctx.api.DELETE('/v1/credentials/{venue}', { params: { path: { venue: venueOf(venue!) } } })), (d) => `${d.venue}: credentials deleted\n`);
  },
};

export const credentialCommands: readonly Command[] = [list, set, remove];
