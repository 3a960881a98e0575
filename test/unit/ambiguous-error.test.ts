/**
 * The `AMBIGUOUS_MULTI_OUTCOME` body (gateway/errors.ts; spec, Quote rules 6 and Errors): the
 * envelope with `outcomes` and `outcome_token_ids` inside `error`, mirrored at the top level
 * for readers of the market-data guide's example, with one request id at both levels. Every
 * other error keeps the exact envelope it had. Both validate against the OpenAPI `ErrorBody`
 * schema.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { AmbiguousMultiOutcomeError, ApiError, errorBody, Errors } from '../../gateway/errors.ts';
import { ErrorBodySchema } from '../../gateway/schemas/common.ts';

const OUTCOMES = ['Alice', 'Bob', 'Carol'];
const TOKEN_IDS = [
  '71321045679252212594626385532706912750332728571942532289631379312455583992563',
  '52114319501245915516055106046884209969926127482827954674443846427813813222750',
  '10000000000000000000000000000000000000000000000000000000000000000000000000001',
];

describe('AMBIGUOUS_MULTI_OUTCOME body', () => {
  const err = Errors.ambiguousMultiOutcome('presidential-election-winner-2028', OUTCOMES, TOKEN_IDS);

  it('is a 400 with the spec code and no details', () => {
    assert.ok(err instanceof AmbiguousMultiOutcomeError);
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, 400);
    assert.equal(err.code, 'AMBIGUOUS_MULTI_OUTCOME');
    assert.deepEqual(err.details, []);
    assert.deepEqual(err.headers, {});
  });

  it('carries the candidates inside the envelope and at the top level, in this key order', () => {
    const text = errorBody(err, 'req-1');
    const message = 'presidential-election-winner-2028 names a multi-outcome event; retry with one of outcome_token_ids';
    const outcomes = JSON.stringify(OUTCOMES);
    const ids = JSON.stringify(TOKEN_IDS);
    assert.equal(
      text,
      `{"error":{"code":"AMBIGUOUS_MULTI_OUTCOME","message":${JSON.stringify(message)},"request_id":"req-1","details":[],` +
        `"outcomes":${outcomes},"outcome_token_ids":${ids}},` +
        `"code":"AMBIGUOUS_MULTI_OUTCOME","message":${JSON.stringify(message)},"request_id":"req-1",` +
        `"outcomes":${outcomes},"outcome_token_ids":${ids}}`,
    );
    const body = JSON.parse(text) as Record<string, unknown> & { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body), ['error', 'code', 'message', 'request_id', 'outcomes', 'outcome_token_ids']);
    assert.deepEqual(Object.keys(body.error), ['code', 'message', 'request_id', 'details', 'outcomes', 'outcome_token_ids']);
    // One request id (the X-Request-Id the answer carries), the same at both levels.
    assert.equal(body.request_id, 'req-1');
    assert.equal(body.error.request_id, body.request_id);
    for (const k of ['code', 'message', 'outcomes', 'outcome_token_ids'] as const) assert.deepEqual(body[k], body.error[k], k);
  });

  it('keeps the candidates it was given, parallel and unchanged by later edits of the caller\'s arrays', () => {
    const outcomes = ['Yes team', 'No team'];
    const ids = ['1', '2'];
    const e = Errors.ambiguousMultiOutcome('KXEVENT-26', outcomes, ids);
    outcomes.push('late');
    ids[0] = 'changed';
    const body = JSON.parse(errorBody(e, 'r')) as { outcomes: string[]; outcome_token_ids: string[]; error: { outcomes: string[]; outcome_token_ids: string[] } };
    assert.deepEqual([body.outcomes, body.outcome_token_ids], [['Yes team', 'No team'], ['1', '2']]);
    assert.deepEqual([body.error.outcomes, body.error.outcome_token_ids], [['Yes team', 'No team'], ['1', '2']]);
    assert.throws(() => Errors.ambiguousMultiOutcome('KXEVENT-26', ['a', 'b'], ['1']), RangeError);
  });

  it('leaves every other error body exactly as it was', () => {
    assert.equal(
      errorBody(Errors.notFound('no quote data for ZZZ-USD'), 'req-2'),
      '{"error":{"code":"NOT_FOUND","message":"no quote data for ZZZ-USD","request_id":"req-2","details":[]}}',
    );
    assert.equal(
      errorBody(Errors.validation([{ field: 'symbol', message: 'required' }]), 'req-3'),
      '{"error":{"code":"VALIDATION_ERROR","message":"request validation failed","request_id":"req-3","details":[{"field":"symbol","message":"required"}]}}',
    );
    assert.equal(
      errorBody(Errors.rateLimited(1), 'req-4'),
      '{"error":{"code":"RATE_LIMITED","message":"rate limit exceeded","request_id":"req-4","details":[]}}',
    );
  });

  it('both shapes validate against the OpenAPI ErrorBody schema; a body without the envelope does not', () => {
    const validate = new Ajv2020({ strict: false }).compile(ErrorBodySchema);
    const ambiguous = JSON.parse(errorBody(err, 'req-5')) as unknown;
    assert.ok(validate(ambiguous), JSON.stringify(validate.errors));
    assert.ok(validate(JSON.parse(errorBody(Errors.internal(), 'req-6'))), JSON.stringify(validate.errors));
    // The guide's reader alone (no `error` key) is not the envelope: the body must carry both.
    const { error: _dropped, ...topOnly } = ambiguous as { error: unknown };
    assert.equal(validate(topOnly), false);
    assert.equal(validate({ error: { code: 'X', message: 'm', request_id: 'r', details: [] }, outcomes: 'Alice' }), false);
  });
});
