import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPrivateAddress } from './private-network.js';

test("every range of the shop's network is private, in each spelling, and its neighbours are not", () => {
  const shop = [
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.0',
    '100.127.255.255',
    '::ffff:100.64.0.1',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.20',
    '127.0.0.1',
    '127.255.0.9',
    '169.254.169.254',
    '0.0.0.0',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::',
    'fe80::1',
    'febf::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '[::ffff:7f00:1]',
    '::ffff:10.1.2.3',
    '::ffff:c0a8:0101',
    '0:0:0:0:0:ffff:a9fe:a9fe',
  ];
  for (const address of shop) assert.equal(isPrivateAddress(address), true, address);
  const world = [
    '9.255.255.255',
    '11.0.0.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.1',
    '192.167.1.1',
    '169.253.0.1',
    '1.1.1.1',
    '93.184.215.14',
    '2606:4700::1111',
    'fec0::1',
    '::ffff:8.8.8.8',
    'example.com',
    'localhost',
    '',
  ];
  for (const address of world) assert.equal(isPrivateAddress(address), false, address);
});
