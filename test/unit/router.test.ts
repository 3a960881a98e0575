/**
 * The path router: exact and templated routes, 405 with the allowed methods, percent-decoding
 * of parameters, duplicates.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HttpMethod, RouteSpec } from '../../gateway/http/route.ts';
import { Router, type RouteMatch } from '../../gateway/http/router.ts';

function route(method: HttpMethod, path: string): RouteSpec {
  return {
    method,
    path,
    operationId: `${method}:${path}`,
    summary: path,
    tags: [],
    auth: 'public',
    responses: {},
    handler: () => ({ status: 200, body: null }),
  };
}

function found(match: RouteMatch): { route: RouteSpec; params: Record<string, string> } {
  assert.equal(match.kind, 'found', JSON.stringify(match));
  return match as { kind: 'found'; route: RouteSpec; params: Record<string, string> };
}

function build(...specs: RouteSpec[]): Router {
  const router = new Router();
  for (const spec of specs) router.add(spec);
  return router;
}

describe('Router', () => {
  const health = route('get', '/v1/health');
  const listKeys = route('get', '/v1/api_keys');
  const createKey = route('post', '/v1/api_keys');
  const deleteKey = route('delete', '/v1/api_keys/{key_id}');
  const rotateKey = route('post', '/v1/api_keys/{key_id}/rotate');
  const router = build(health, listKeys, createKey, deleteKey, rotateKey);

  it('keeps the routes in insertion order', () => {
    assert.deepEqual(router.routes, [health, listKeys, createKey, deleteKey, rotateKey]);
  });

  it('matches exact routes by path and method, with no params', () => {
    const m = found(router.match('get', '/v1/health'));
    assert.equal(m.route, health);
    assert.deepEqual(m.params, {});
    assert.equal(found(router.match('get', '/v1/api_keys')).route, listKeys);
    assert.equal(found(router.match('post', '/v1/api_keys')).route, createKey);
  });

  it('matches templated routes and extracts parameters', () => {
    const del = found(router.match('delete', '/v1/api_keys/key_abc123'));
    assert.equal(del.route, deleteKey);
    assert.deepEqual(del.params, { key_id: 'key_abc123' });
    const rot = found(router.match('post', '/v1/api_keys/key_xyz/rotate'));
    assert.equal(rot.route, rotateKey);
    assert.deepEqual(rot.params, { key_id: 'key_xyz' });
  });

  it('extracts several parameters', () => {
    const r = build(route('get', '/v1/books/{venue}/{symbol}/levels/{depth}'));
    assert.deepEqual(found(r.match('get', '/v1/books/kraken/BTC-USD/levels/10')).params, {
      venue: 'kraken',
      symbol: 'BTC-USD',
      depth: '10',
    });
  });

  it('percent-decodes parameters, and refuses malformed escapes', () => {
    assert.deepEqual(found(router.match('delete', '/v1/api_keys/key%5Fabc')).params, { key_id: 'key_abc' });
    assert.deepEqual(found(router.match('delete', '/v1/api_keys/a%20b%2Fc')).params, { key_id: 'a b/c' });
    assert.deepEqual(found(router.match('delete', '/v1/api_keys/%E2%82%AC')).params, { key_id: '€' });
    assert.deepEqual(router.match('delete', '/v1/api_keys/%E0%A4%A'), { kind: 'not_found' });
    assert.deepEqual(router.match('delete', '/v1/api_keys/%zz'), { kind: 'not_found' });
  });

  it('does not decode static segments: an encoded static path is not found', () => {
    assert.deepEqual(router.match('get', '/v1/h%65alth'), { kind: 'not_found' });
    assert.deepEqual(router.match('post', '/v1/api_keys/key_1/r%6Ftate'), { kind: 'not_found' });
  });

  it('answers a known path with another method as method_not_allowed, listing the allowed methods', () => {
    assert.deepEqual(router.match('patch', '/v1/api_keys'), { kind: 'method_not_allowed', allowed: ['GET', 'POST'] });
    assert.deepEqual(router.match('delete', '/v1/health'), { kind: 'method_not_allowed', allowed: ['GET'] });
    assert.deepEqual(router.match('get', '/v1/api_keys/key_1'), { kind: 'method_not_allowed', allowed: ['DELETE'] });
    assert.deepEqual(router.match('get', '/v1/api_keys/key_1/rotate'), { kind: 'method_not_allowed', allowed: ['POST'] });
  });

  it('lists several methods of one template', () => {
    const r = build(route('get', '/v1/things/{id}'), route('delete', '/v1/things/{id}'), route('put', '/v1/things/{id}'));
    assert.deepEqual(r.match('post', '/v1/things/1'), { kind: 'method_not_allowed', allowed: ['GET', 'DELETE', 'PUT'] });
  });

  it('answers unknown paths as not_found', () => {
    for (const path of [
      '/',
      '',
      '/v1',
      '/v1/',
      '/v1/health/',
      '/v1/healthz',
      '/V1/health',
      '/v1/api_keys//rotate',
      '/v1/api_keys/',
      '/v1/api_keys/key_1/rotate/extra',
      '/v1/api_keys/key_1/spin',
    ]) {
      assert.deepEqual(router.match('get', path), { kind: 'not_found' }, JSON.stringify(path));
    }
  });

  it('tries the template with the leftmost literal segment first, whatever the order routes were added in', () => {
    const rewards = route('get', '/v1/{prediction_venue}/rewards');
    const order = route('get', '/v1/orders/{node_order_id}');
    for (const r of [build(rewards, order), build(order, rewards)]) {
      assert.equal(found(r.match('get', '/v1/orders/rewards')).route, order);
      assert.deepEqual(found(r.match('get', '/v1/polymarket/rewards')).params, { prediction_venue: 'polymarket' });
      assert.equal(found(r.match('get', '/v1/orders/ord_1')).route, order);
    }
  });

  it('throws on a duplicate route, exact or templated', () => {
    assert.throws(() => build(route('get', '/v1/x'), route('get', '/v1/x')), /duplicate route get \/v1\/x/);
    assert.throws(() => build(route('post', '/v1/x/{id}'), route('post', '/v1/x/{id}')), /duplicate route/);
    // Same path, another method: fine.
    const ok = build(route('get', '/v1/x/{id}'), route('post', '/v1/x/{id}'));
    assert.equal(ok.routes.length, 2);
  });

  it(
    'throws on a duplicate template that only renames its parameter',
    () => {
      assert.throws(() => build(route('get', '/v1/x/{a}'), route('get', '/v1/x/{b}')), /duplicate route/);
    },
  );

  it(
    'routes by method across every template a path matches',
    () => {
      const a = route('get', '/v1/a/{x}/c');
      const b = route('post', '/v1/a/b/{y}');
      const r = build(a, b);
      assert.equal(found(r.match('post', '/v1/a/b/c')).route, b);
      assert.equal(found(r.match('get', '/v1/a/b/c')).route, a);

      const special = route('post', '/v1/things/special');
      const byId = route('get', '/v1/things/{id}');
      const r2 = build(special, byId);
      assert.deepEqual(found(r2.match('get', '/v1/things/special')).params, { id: 'special' });

      // The likeliest way to get there: two route modules name the same parameter differently.
      const r3 = build(route('get', '/v1/orders/{order_id}'), route('delete', '/v1/orders/{id}'));
      assert.deepEqual(found(r3.match('delete', '/v1/orders/o1')).params, { id: 'o1' });
    },
  );
});
