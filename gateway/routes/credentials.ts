import { Type, type Static } from 'typebox';
import { VENUES, type VenueId } from '../../domain/market.ts';
import { MAX_EXTRA_JSON_BYTES, MAX_FIELD_CHARS, MAX_PEM_BYTES, SIGNER_REQUIRED_MESSAGE } from '../../storage/credential-shapes.ts';
import type { GatewayContext } from '../context.ts';
import { Errors } from '../errors.ts';
import { principalOf, type RouteSpec } from '../http/route.ts';

/**
 * Venue credentials (spec, Credentials). Rows are per (client, key mode, venue): a sandbox key
 * sees and changes only sandbox credentials. Secrets go in and never come out: answers carry
 * the venue name only, validation messages name the broken rule without echoing values, and
 * the log lines carry client, mode and venue.
 */
const VenueParams = Type.Object({
  venue: Type.String({ enum: [...VENUES], description: 'one of the ten venue ids' }),
});

const StoreCredentialsReq = Type.Object(
  {
    api_key: Type.String({ maxLength: MAX_FIELD_CHARS, description: "key id or address; '' for polymarket without L2 credentials" }),
    api_secret: Type.String({
      maxLength: MAX_PEM_BYTES,
      description: `secret (at most ${MAX_FIELD_CHARS} characters) or PEM private key (at most ${MAX_PEM_BYTES} bytes); '' for polymarket without L2 credentials`,
    }),
    passphrase: Type.Optional(
      Type.Union([Type.String({ maxLength: MAX_FIELD_CHARS }), Type.Null()], {
        description: 'required by okx and kucoin; the vault address on hyperliquid; the L2 passphrase on polymarket',
      }),
    ),
    extra_json: Type.Optional(
      Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
        description:
          `venue-specific, at most ${MAX_EXTRA_JSON_BYTES} bytes as JSON; polymarket: signer_private_key (required), ` +
          'proxy_address, builder',
      }),
    ),
  },
  { $id: 'StoreCredentialsReq', additionalProperties: false },
);

const CredentialVenuesSchema = Type.Object(
  {
    venues: Type.Array(Type.String(), { description: 'venues with stored credentials in the mode of the calling key, sorted' }),
    unsafe: Type.Array(Type.String(), {
      description: 'of those, the live venues that report the stored key can withdraw (probed in the background after each store and at start); grant read and trade only',
    }),
  },
  { $id: 'CredentialVenues' },
);
const CredentialsStoredSchema = Type.Object(
  { venue: Type.String(), status: Type.Literal('stored') },
  { $id: 'CredentialsStored' },
);
const CredentialsDeletedSchema = Type.Object(
  { venue: Type.String(), deleted: Type.Literal(true) },
  { $id: 'CredentialsDeleted' },
);

const tags = ['credentials'];

export function credentialRoutes(ctx: GatewayContext): RouteSpec[] {
  const store = ctx.storage.credentials;
  return [
    {
      method: 'get',
      path: '/v1/credentials',
      operationId: 'listCredentials',
      summary: 'Venues with stored credentials for the caller, in the mode of the calling key',
      tags,
      auth: 'bearer',
      responses: { 200: { description: 'Venue ids, sorted', schema: CredentialVenuesSchema } },
      handler: (req) => {
        const principal = principalOf(req);
        return { status: 200, body: { venues: store.venues(principal.client_id, principal.mode), unsafe: ctx.credentialProbes.unsafe(principal.client_id, principal.mode) } };
      },
    },
    {
      method: 'post',
      path: '/v1/credentials/{venue}',
      operationId: 'storeCredentials',
      summary: 'Store (or replace) the credentials of the caller for a venue, encrypted at rest',
      description:
        'Per-venue shape rules are in docs/credentials.md. Answers 200 whether the row is new or replaced. ' +
        'Only read and trade permissions should be granted on the venue; withdrawal must stay off.',
      tags,
      auth: 'bearer',
      params: VenueParams,
      body: StoreCredentialsReq,
      responses: {
        200: { description: 'Stored; durable before this answer', schema: CredentialsStoredSchema },
      },
      handler: async (req) => {
        const principal = principalOf(req);
        const venue = req.params['venue'] as VenueId;
        const body = req.body as Static<typeof StoreCredentialsReq>;
        const result = await store.put(principal.client_id, principal.mode, venue, {
          api_key: body.api_key,
          api_secret: body.api_secret,
          ...(body.passphrase != null ? { passphrase: body.passphrase } : {}),
          ...(body.extra_json != null ? { extra_json: body.extra_json as Record<string, unknown> } : {}),
        });
        if (!result.stored) {
          const signer = result.errors.some((e) => e.message === SIGNER_REQUIRED_MESSAGE);
          throw Errors.validation(result.errors, signer ? SIGNER_REQUIRED_MESSAGE : `invalid credentials for ${venue}`);
        }
        ctx.log.info({ client_id: principal.client_id, mode: principal.mode, venue, credentials_key_id: store.keyId }, 'venue credentials stored');
        return { status: 200, body: { venue, status: 'stored' } };
      },
    },
    {
      method: 'delete',
      path: '/v1/credentials/{venue}',
      operationId: 'deleteCredentials',
      summary: 'Delete the credentials of the caller for a venue',
      tags,
      auth: 'bearer',
      params: VenueParams,
      responses: {
        200: { description: 'Deleted; durable before this answer', schema: CredentialsDeletedSchema },
        404: { description: 'No credentials stored for this venue in the mode of the calling key' },
      },
      handler: async (req) => {
        const principal = principalOf(req);
        const venue = req.params['venue'] as VenueId;
        if (!(await store.delete(principal.client_id, principal.mode, venue))) {
          throw Errors.notFound(`no credentials stored for ${venue}`);
        }
        ctx.log.info({ client_id: principal.client_id, mode: principal.mode, venue }, 'venue credentials deleted');
        return { status: 200, body: { venue, deleted: true } };
      },
    },
  ];
}
