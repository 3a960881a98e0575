/**
 * The regions' settings and names (actors/region-link/): `NATS_URL` unset is one node and
 * nothing else; set, it needs a region and takes only known venues; URLs never carry
 * credentials. Subject tokens are percent-encoded over the bytes NATS reserves, so every symbol
 * has one token and two symbols never share one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { regionFromEnv } from '../../actors/region-link/config.ts';
import { bookSubject, decodeToken, edgeStatusSubject, LIFECYCLE_STREAM, subjectToken } from '../../actors/region-link/subjects.ts';
import { VENUES } from '../../domain/market.ts';

describe('region link: settings and subjects', () => {
  it('is a single node without NATS_URL, and refuses LOCAL_VENUES alone', () => {
    assert.equal(regionFromEnv({}), undefined);
    assert.equal(regionFromEnv({ REGION: 'eu' }), undefined, 'a region without NATS changes nothing');
    assert.throws(() => regionFromEnv({ LOCAL_VENUES: 'kraken' }), /LOCAL_VENUES needs NATS_URL/);
  });

  it('joins with NATS_URL, a region and its venues', () => {
    assert.deepEqual(regionFromEnv({ NATS_URL: 'nats://127.0.0.1:4222, nats://127.0.0.1:4223', REGION: 'eu', LOCAL_VENUES: 'kraken,bitstamp,kraken' }), {
      natsUrls: ['nats://127.0.0.1:4222', 'nats://127.0.0.1:4223'],
      region: 'eu',
      localVenues: ['kraken', 'bitstamp'],
    });
    assert.deepEqual(regionFromEnv({ NATS_URL: 'nats://127.0.0.1:4222', REGION: 'ap-northeast-1' })!.localVenues, [...VENUES], 'every venue by default');
  });

  it('refuses what it cannot use, naming the setting', () => {
    assert.throws(() => regionFromEnv({ NATS_URL: 'nats://127.0.0.1:4222' }), /REGION must name/);
    assert.throws(() => regionFromEnv({ NATS_URL: 'nats://127.0.0.1:4222', REGION: 'EU' }), /REGION must name/);
    assert.throws(() => regionFromEnv({ NATS_URL: 'nats://127.0.0.1:4222', REGION: 'eu', LOCAL_VENUES: 'kraken,mtgox' }), /unknown venue mtgox/);
    assert.throws(() => regionFromEnv({ NATS_URL: 'http://127.0.0.1:4222', REGION: 'eu' }), /nats:\/\/ or tls:\/\//);
    assert.throws(() => regionFromEnv({ NATS_URL: 'nats://127.0.0.1', REGION: 'eu' }), /host and a port/);
    const secret = 'hunter2-secret';
    assert.throws(() => regionFromEnv({ NATS_URL: `nats://user:${secret}@127.0.0.1:4222`, REGION: 'eu' }), (err: Error) => /credentials do not belong/.test(err.message) && !err.message.includes(secret));
  });

  it('encodes any symbol as one token, reversibly and injectively', () => {
    assert.equal(subjectToken('BTC-USDT'), 'BTC-USDT', 'a plain symbol reads as itself');
    assert.equal(subjectToken('KXCPI-26DEC-T3.0:YES'), 'KXCPI-26DEC-T3%2E0:YES');
    assert.equal(bookSubject('venue-edge-kalshi', 'KXCPI-26DEC-T3.0:YES'), 'seq.book.venue-edge-kalshi.KXCPI-26DEC-T3%2E0:YES');
    assert.equal(edgeStatusSubject('eu', 'venue-edge-kraken'), 'seq.edge.eu.venue-edge-kraken.status');
    assert.ok(LIFECYCLE_STREAM.subjects[0]!.startsWith('seq.lifecycle.'));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), (a, b) => {
        const ta = subjectToken(a);
        assert.ok(!/[.*> \t\r\n\f\v]/.test(ta), `a token holds no reserved byte: ${JSON.stringify(ta)}`);
        assert.equal(decodeToken(ta), a);
        if (a !== b) assert.notEqual(ta, subjectToken(b));
      }),
      { numRuns: 2_000 },
    );
  });
});
