import { ok } from '../errors.ts';
import { EXIT, output, printJson, type Command, type Context, type Schemas } from './context.ts';

/**
 * A raw key exists only in this answer (the service keeps a hash), so it is the one secret the
 * CLI prints: on stdout alone, so `KEY=$(seq keys create)` captures it and nothing else; the
 * note that it will not be shown again goes to stderr.
 */
function issued(ctx: Context, key: Schemas['IssuedApiKey'], verb: string): number {
  if (ctx.json) printJson(ctx, key);
  else ctx.io.stdout(`${key.raw_key}\n`);
  ctx.io.stderr(
    `${verb} key ${key.id} (${key.key_prefix}, ${key.is_sandbox ? 'sandbox' : 'live'}${key.label === null ? '' : `, ${JSON.stringify(key.label)}`}): ` +
      'store it now, it is not shown again\n',
  );
  return EXIT.OK;
}

const create: Command = {
  path: ['keys', 'create'],
  args: [],
  options: ['label', 'sandbox'],
  synopsis: '[--label L] [--sandbox]',
  summary: 'create an API key and print it once (a sandbox key can only create sandbox keys)',
  async run(ctx, _args, flags) {
    const body = { ...(flags.label === undefined ? {} : { label: flags.label }), ...(flags.sandbox === true ? { sandbox: true } : {}) };
    return issued(ctx, ok(await ctx.api.POST('/v1/api_keys', { body })), 'created');
  },
};

const rotate: Command = {
  path: ['keys', 'rotate'],
  args: ['<key_id>'],
  options: [],
  summary: 'replace a key (same label and mode; the old one stops working at once) and print the new one once',
  async run(ctx, [id]) {
    return issued(ctx, ok(await ctx.api.POST('/v1/api_keys/{key_id}/rotate', { params: { path: { key_id: id! } } })), 'rotated to');
  },
};

const revoke: Command = {
  path: ['keys', 'revoke'],
  args: ['<key_id>'],
  options: [],
  summary: 'deactivate a key (not the one in SEQ_API_KEY)',
  async run(ctx, [id]) {
    return output(ctx, ok(await ctx.api.DELETE('/v1/api_keys/{key_id}', { params: { path: { key_id: id! } } })), (k) => `revoked ${k.id} (${k.key_prefix})\n`);
  },
};

export const keyCommands: readonly Command[] = [create, rotate, revoke];
