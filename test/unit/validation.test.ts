/**
 * Request validation from schemas: field paths, required, additionalProperties, unions, no
 * coercion for JSON bodies, coercion (and defaults) for query and path text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { compileBody, compileText } from '../../gateway/validation.ts';

const Order = Type.Object(
  {
    symbol: Type.String({ minLength: 1 }),
    qty_1e8: Type.Integer({ minimum: 1 }),
    side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
    label: Type.Optional(Type.Union([Type.String({ maxLength: 5 }), Type.Null()])),
    constraints: Type.Optional(
      Type.Object({ max_price_1e9: Type.Integer(), venues: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: false }),
    ),
    legs: Type.Optional(Type.Array(Type.Object({ venue: Type.String(), weight: Type.Number() }, { additionalProperties: false }))),
  },
  { $id: 'OrderReq', additionalProperties: false },
);

const validOrder = { symbol: 'BTC-USD', qty_1e8: 100, side: 'buy' };

describe('compileBody', () => {
  const validate = compileBody(Order);

  it('returns null for a valid body', () => {
    assert.equal(validate(validOrder), null);
    assert.equal(validate({ ...validOrder, label: null, constraints: { max_price_1e9: 5 }, legs: [{ venue: 'a', weight: 1 }] }), null);
  });

  it('names a wrong type by its field', () => {
    assert.deepEqual(validate({ ...validOrder, qty_1e8: 'ten' }), [{ field: 'qty_1e8', message: 'must be integer' }]);
  });

  it('gives one detail per problem, all problems at once', () => {
    const details = validate({ symbol: '', qty_1e8: 0, side: 'buy' })!;
    assert.deepEqual(details.map((d) => d.field).sort(), ['qty_1e8', 'symbol']);
  });

  it('says a missing field is required, naming it (nested too)', () => {
    assert.deepEqual(validate({ symbol: 'X', side: 'sell' }), [{ field: 'qty_1e8', message: 'is required' }]);
    assert.deepEqual(validate({ ...validOrder, constraints: {} }), [{ field: 'constraints.max_price_1e9', message: 'is required' }]);
    assert.deepEqual(validate({ ...validOrder, legs: [{ venue: 'a', weight: 1 }, { venue: 'b' }] }), [
      { field: 'legs[1].weight', message: 'is required' },
    ]);
  });

  it('names an unknown field (nested too)', () => {
    assert.deepEqual(validate({ ...validOrder, colour: 'red' }), [{ field: 'colour', message: 'is not a known field' }]);
    assert.deepEqual(validate({ ...validOrder, constraints: { max_price_1e9: 1, cap: 2 } }), [
      { field: 'constraints.cap', message: 'is not a known field' },
    ]);
    assert.deepEqual(validate({ ...validOrder, legs: [{ venue: 'a', weight: 1, x: 1 }] }), [
      { field: 'legs[0].x', message: 'is not a known field' },
    ]);
  });

  it('writes array paths with brackets', () => {
    const details = validate({ ...validOrder, constraints: { max_price_1e9: 1, venues: ['a', 2, 'c', 4] } })!;
    assert.deepEqual(details.map((d) => d.field), ['constraints.venues[1]', 'constraints.venues[3]']);
    const rootArray = compileBody(Type.Array(Type.Integer()))([1, 'x', 3])!;
    assert.deepEqual(rootArray.map((d) => d.field), ['[1]']);
  });

  it('names the whole body `body` when it is not an object', () => {
    for (const value of [null, [], 'text', 42]) {
      const details = validate(value)!;
      assert.equal(details.length, 1, JSON.stringify(value));
      assert.equal(details[0]!.field, 'body');
    }
  });

  it('reports a failed union once per field', () => {
    const nullable = validate({ ...validOrder, label: 5 })!;
    assert.deepEqual(nullable, [{ field: 'label', message: 'must be string or null' }]);
    const tooLong = validate({ ...validOrder, label: 'toolong' })!;
    assert.equal(tooLong.length, 1, JSON.stringify(tooLong));
    assert.equal(tooLong[0]!.field, 'label');
    const literal = validate({ ...validOrder, side: 'hold' })!;
    assert.equal(literal.length, 1, JSON.stringify(literal));
    assert.equal(literal[0]!.field, 'side');
  });

  it('does not coerce JSON bodies', () => {
    const flags = compileBody(Type.Object({ active: Type.Boolean(), n: Type.Integer() }));
    assert.deepEqual(flags({ active: 'true', n: '5' })?.map((d) => d.field).sort(), ['active', 'n']);
    const body = { active: true, n: 5 };
    assert.equal(flags(body), null);
  });

  it('compiles a schema with an $id more than once (ids are not registered globally)', () => {
    assert.doesNotThrow(() => {
      compileBody(Order);
      compileBody(Order);
      compileText(Order, 'query');
    });
  });
});

describe('compileText (query and path parameters)', () => {
  const Query = Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    include_closed: Type.Optional(Type.Boolean()),
    venue: Type.Optional(Type.String()),
  });
  const validate = compileText(Query, 'query');

  it('coerces integers and booleans from text, in place', () => {
    const query: Record<string, unknown> = { limit: '50', include_closed: 'true', venue: 'kraken' };
    assert.equal(validate(query), null);
    assert.deepEqual(query, { limit: 50, include_closed: true, venue: 'kraken' });
    const falsy: Record<string, unknown> = { include_closed: 'false' };
    assert.equal(validate(falsy), null);
    assert.equal(falsy['include_closed'], false);
  });

  it('fills in defaults', () => {
    const query: Record<string, unknown> = {};
    assert.equal(validate(query), null);
    assert.equal(query['limit'], 100);
  });

  it('names the parameter that does not convert or is out of range', () => {
    assert.deepEqual(validate({ limit: 'ten' })?.map((d) => d.field), ['limit']);
    assert.deepEqual(validate({ limit: '1001' })?.map((d) => d.field), ['limit']);
    assert.deepEqual(validate({ limit: '2.5' })?.map((d) => d.field), ['limit']);
    assert.deepEqual(validate({ include_closed: 'maybe' })?.map((d) => d.field), ['include_closed']);
  });

  it('names the root after the input when the whole input is wrong', () => {
    const strict = compileText(Type.Object({ a: Type.String() }, { additionalProperties: false }), 'path');
    assert.deepEqual(strict({ a: 'x', b: 'y' }), [{ field: 'b', message: 'is not a known field' }]);
    assert.deepEqual(strict({}), [{ field: 'a', message: 'is required' }]);
    const list = compileText(Type.Array(Type.Integer()), 'query');
    assert.deepEqual(list('x')?.map((d) => d.field), ['query']);
  });

  it('checks patterns on path parameters', () => {
    const params = compileText(Type.Object({ key_id: Type.String({ pattern: '^key_[0-9A-Za-z]{1,64}$' }) }), 'path');
    assert.equal(params({ key_id: 'key_abc' }), null);
    assert.deepEqual(params({ key_id: 'nope' })?.map((d) => d.field), ['key_id']);
  });
});
