import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { WebhookSender } from './sender.js';
import { nonPublicReason, urlProblem } from './url-guard.js';

const production = { allowPrivate: false, maxUrlLength: 2048 };
const development = { allowPrivate: true, maxUrlLength: 2048 };

describe('webhook URLs in production', () => {
  const refused: Array<[string, string]> = [
    ['http://hooks.example.com/in', 'http'],
    ['ftp://hooks.example.com/in', 'other scheme'],
    ['https://user:pass@hooks.example.com/in', 'credentials'],
    ['https://127.0.0.1/in', 'loopback'],
    ['https://localhost/in', 'localhost'],
    ['https://10.1.2.3/in', 'private 10/8'],
    ['https://172.16.0.1/in', 'private 172.16/12'],
    ['https://192.168.1.1/in', 'private 192.168/16'],
    ['https://169.254.169.254/latest/meta-data', 'link-local (cloud metadata)'],
    ['https://100.64.0.1/in', 'carrier-grade NAT'],
    ['https://0.0.0.0/in', 'unspecified'],
    ['https://2130706433/in', 'decimal loopback'],
    ['https://0177.0.0.1/in', 'octal loopback'],
    ['https://0x7f.1/in', 'hex loopback'],
    ['https://[::1]/in', 'IPv6 loopback'],
    ['https://[fc00::1]/in', 'unique-local'],
    ['https://[fd12:3456::1]/in', 'unique-local fd'],
    ['https://[fe80::1]/in', 'IPv6 link-local'],
    ['https://[::ffff:127.0.0.1]/in', 'IPv4-mapped loopback'],
    ['https://[::ffff:8.8.8.8]/in', 'IPv4-mapped public'],
    ['https://[::]/in', 'IPv6 unspecified'],
    ['https://224.0.0.1/in', 'multicast'],
    ['not a url', 'not a URL'],
  ];
  for (const [url, form] of refused) {
    test(`refuses ${form}: ${url}`, () => {
      assert.notEqual(urlProblem(url, production), null);
    });
  }

  test('accepts https to a public name or address', () => {
    assert.equal(urlProblem('https://hooks.example.com/in?x=1', production), null);
    assert.equal(urlProblem('https://8.8.8.8/in', production), null);
    assert.equal(urlProblem('https://[2606:4700::1111]/in', production), null);
  });

  test('refuses a URL one character over the length limit and accepts one at it', () => {
    const base = 'https://hooks.example.com/';
    const at = base + 'a'.repeat(2048 - base.length);
    assert.equal(urlProblem(at, production), null);
    assert.match(urlProblem(at + 'a', production)!, /at most 2048/);
  });
});

describe('webhook URLs outside production (an explicit allowPrivate flag)', () => {
  test('allow http to loopback', () => {
    assert.equal(urlProblem('http://127.0.0.1:9999/hook', development), null);
  });
  test('still refuse credentials and other schemes', () => {
    assert.notEqual(urlProblem('http://a:b@127.0.0.1/hook', development), null);
    assert.notEqual(urlProblem('file:///etc/passwd', development), null);
  });
});

describe('addresses', () => {
  test('public IPv4 and IPv6 addresses are public', () => {
    assert.equal(nonPublicReason('93.184.216.34'), null);
    assert.equal(nonPublicReason('2a00:1450:4001:80e::200e'), null);
  });
  test('the edges of 172.16/12 are checked exactly', () => {
    assert.equal(nonPublicReason('172.15.255.255'), null);
    assert.notEqual(nonPublicReason('172.16.0.0'), null);
    assert.notEqual(nonPublicReason('172.31.255.255'), null);
    assert.equal(nonPublicReason('172.32.0.0'), null);
  });
});

describe('delivery-time checks in production', () => {
  const sender = new WebhookSender({ allowPrivate: false, timeoutMs: 2000, maxSocketsPerHost: 1 });

  test('a name that resolves to loopback is refused before connecting', async () => {
    const result = await sender.send('https://localhost:1/hook', {}, '{}');
    assert.equal(result.ok, false);
    assert.equal(result.status, null);
    assert.match(result.error!, /refused: localhost resolves to no public address/);
  });

  test('a literal private address is refused before connecting', async () => {
    const result = await sender.send('https://0x7f.1:1/hook', {}, '{}');
    assert.match(result.error!, /refused: 127\.0\.0\.1/);
  });

  test('http is refused at delivery time too', async () => {
    const result = await sender.send('http://8.8.8.8/hook', {}, '{}');
    assert.match(result.error!, /refused: the URL must use https/);
    sender.close();
  });
});
