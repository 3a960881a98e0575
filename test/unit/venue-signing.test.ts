/**
 * Venue request signing (actors/edge/live/signing.ts) against the examples the venues publish
 * in their API documentation: a different signature for these inputs means the venue would
 * refuse every signed request.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { binanceSignature, binanceSignedQuery, krakenApiSign } from '../../actors/edge/live/signing.ts';

describe('venue signing: published examples', () => {
  it('Binance: HMAC-SHA256 of the query string, hex (the spot API docs, "SIGNED endpoint examples")', () => {
    const secret = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
    const query = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    assert.equal(binanceSignature(query, secret), 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71');
    assert.equal(binanceSignedQuery(query, secret), `${query}&signature=c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71`);
    // One byte of the query changed (a parameter moved) is another signature: the venue checks the bytes it receives.
    assert.notEqual(binanceSignature(query.replace('quantity=1&price=0.1', 'price=0.1&quantity=1'), secret), binanceSignature(query, secret));
  });

  it('Kraken: API-Sign, HMAC-SHA512 of path + SHA-256(nonce + body) (the spot REST authentication guide)', () => {
    const secret = 'kQH5HW/8p1uGOVjbgWA7FunAmGO8lsSUXNsu3eow76sz84Q18fWxnyRzBHCd3pd5nE9qa99HAZtuZuj6F1huXg==';
    const nonce = '1616492376594';
    const body = 'nonce=1616492376594&ordertype=limit&pair=XBTUSD&price=37500&type=buy&volume=1.25';
    assert.equal(krakenApiSign('/0/private/AddOrder', nonce, body, secret), '4/dpxb3iT4tp/ZCVEwSnEsLxx0bqyhLpdfOpc6fn7OR8+UClSV5n9E6aSS8MPtnRfp32bAb0nmbRn6H8ndwLUQ==');
    assert.notEqual(krakenApiSign('/0/private/CancelOrder', nonce, body, secret), krakenApiSign('/0/private/AddOrder', nonce, body, secret), 'the path is signed');
  });
});
