/**
 * Venue request signing (actors/edge/live/signing.ts) against the examples the venues publish
 * in their API documentation: a different signature for these inputs means the venue would
 * refuse every signed request.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { constants, createHmac, generateKeyPairSync, verify } from 'node:crypto';
import { jwtVerify, decodeProtectedHeader } from 'jose';
import { binanceSignature, binanceSignedQuery, bybitSignature, coinbaseJwt, kalshiSignature, krakenApiSign, kucoinSignature, kucoinSignedPassphrase, okxSignature } from '../../actors/edge/live/signing.ts';

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

  // Bybit, OKX and KuCoin publish the string to sign, not a signature of sample inputs: these hold our
  // signatures to that string, built here by hand from their documentation's wording.
  it('Bybit v5: HMAC-SHA256 hex of timestamp + key + recv window + body', () => {
    const body = '{"category":"spot","symbol":"BTCUSDT","side":"Buy","orderType":"Market","qty":"0.001","orderLinkId":"ord_1-1"}';
    const expected = createHmac('sha256', 'secret').update(`1658384314791XXXXXXXXXX5000${body}`).digest('hex');
    assert.equal(bybitSignature('1658384314791', 'XXXXXXXXXX', '5000', body, 'secret'), expected);
    assert.match(expected, /^[0-9a-f]{64}$/);
  });

  it('OKX v5: base64 HMAC-SHA256 of ISO timestamp + METHOD + path + body', () => {
    const body = '{"instId":"BTC-USDT","tdMode":"cash","side":"buy","ordType":"market","sz":"0.001","clOrdId":"ord1x1"}';
    const expected = createHmac('sha256', '22582BD0CFF14C41EDBF1AB98506286D').update(`2020-12-08T09:08:57.715ZPOST/api/v5/trade/order${body}`).digest('base64');
    assert.equal(okxSignature('2020-12-08T09:08:57.715Z', 'post', '/api/v5/trade/order', body, '22582BD0CFF14C41EDBF1AB98506286D'), expected, 'the method in capitals');
    assert.notEqual(okxSignature('2020-12-08T09:08:57.715Z', 'GET', '/api/v5/account/balance?ccy=BTC', '', 'k'), okxSignature('2020-12-08T09:08:57.715Z', 'GET', '/api/v5/account/balance', '', 'k'), 'the query is part of the path signed');
  });

  it('KuCoin: base64 HMAC-SHA256 of timestamp + METHOD + endpoint + body; a version 2 key signs its passphrase too', () => {
    const body = '{"clientOid":"ord1-1","side":"buy","symbol":"BTC-USDT","type":"market","size":"0.001"}';
    const expected = createHmac('sha256', 'sec').update(`1547015186532POST/api/v1/orders${body}`).digest('base64');
    assert.equal(kucoinSignature('1547015186532', 'post', '/api/v1/orders', body, 'sec'), expected);
    assert.equal(kucoinSignedPassphrase('my passphrase', 'sec'), createHmac('sha256', 'sec').update('my passphrase').digest('base64'));
    assert.notEqual(kucoinSignedPassphrase('my passphrase', 'sec'), 'my passphrase', 'never the passphrase itself');
  });

  it('Kalshi: RSA-PSS (SHA-256, salt of digest length) over timestamp + METHOD + path without its query, verified with the public key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const signature = kalshiSignature('1703123456789', 'get', '/trade-api/v2/portfolio/orders?limit=5', privateKey);
    // As the venue checks it (docs: "1703123456789GET/trade-api/v2/portfolio/orders" for /portfolio/orders?limit=5).
    const check = (message: string) => verify('sha256', Buffer.from(message), { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, Buffer.from(signature, 'base64'));
    assert.ok(check('1703123456789GET/trade-api/v2/portfolio/orders'), 'the documented string, query left out');
    assert.ok(!check('1703123456789GET/trade-api/v2/portfolio/orders?limit=5'), 'not with the query');
    assert.equal(Buffer.from(signature, 'base64').length, 256, 'a 2048-bit signature');
  });

  it('Coinbase: an ES256 JWT with the key name as kid and sub, a fresh nonce, two minutes, the request as uri; verified with the public key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const keyName = 'organizations/org-1/apiKeys/key-1';
    const now = Math.floor(Date.now() / 1000);
    const token = await coinbaseJwt(keyName, privateKey, 'post', 'api.coinbase.com', '/api/v3/brokerage/orders', now);
    const { payload, protectedHeader } = await jwtVerify(token, publicKey, { issuer: 'cdp', subject: keyName, algorithms: ['ES256'] });
    assert.equal(protectedHeader.kid, keyName);
    assert.match(String(protectedHeader['nonce']), /^[0-9a-f]{32}$/);
    assert.deepEqual([payload.nbf, payload.exp, payload['uri']], [now, now + 120, 'POST api.coinbase.com/api/v3/brokerage/orders']);
    const again = await coinbaseJwt(keyName, privateKey, 'POST', 'api.coinbase.com', '/api/v3/brokerage/orders', now);
    assert.notEqual(decodeProtectedHeader(again)['nonce'], protectedHeader['nonce'], 'a nonce per token');
  });
});
