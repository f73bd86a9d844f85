import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { FakePrinter } from './fake-printer.js';

async function dial(printer: FakePrinter): Promise<Socket> {
  const socket = connect(printer.port, printer.host);
  await once(socket, 'connect');
  return socket;
}

async function readBytes(socket: Socket, n: number): Promise<number[]> {
  const out: number[] = [];
  while (out.length < n) {
    const [chunk] = (await once(socket, 'data')) as [Buffer];
    out.push(...chunk);
  }
  return out;
}

describe('fake network printer', () => {
  test('records the bytes it receives and leaves status requests out', async () => {
    const printer = await FakePrinter.start();
    const socket = await dial(printer);
    socket.write(Buffer.from([0x1b, 0x40, 0x41, 0x10]));
    socket.write(Buffer.from([0x04, 0x01, 0x42, 0x10, 0x41]));
    assert.deepEqual([...(await readBytes(socket, 1))], [0x12]);
    const bytes = await printer.waitForBytes(5);
    assert.deepEqual([...bytes], [0x1b, 0x40, 0x41, 0x42, 0x10, 0x41]);
    socket.destroy();
    await printer.stop();
  });

  test('answers DLE EOT 1-4 like an Epson printer in each state', async () => {
    const printer = await FakePrinter.start();
    const socket = await dial(printer);
    const ask = async () => {
      socket.write(Buffer.from([0x10, 4, 1, 0x10, 4, 2, 0x10, 4, 3, 0x10, 4, 4]));
      return readBytes(socket, 4);
    };
    assert.deepEqual(await ask(), [0x12, 0x12, 0x12, 0x12]);
    printer.paperOut = true;
    assert.deepEqual(await ask(), [0x1a, 0x32, 0x12, 0x7e]);
    printer.paperOut = false;
    printer.coverOpen = true;
    assert.deepEqual(await ask(), [0x1a, 0x16, 0x12, 0x12]);
    socket.destroy();
    await printer.stop();
  });

  test('refuses connections until it accepts them again on the same port', async () => {
    const printer = await FakePrinter.start();
    const port = printer.port;
    await printer.refuseConnections();
    const refused = connect(port, '127.0.0.1');
    const [error] = (await once(refused, 'error')) as [NodeJS.ErrnoException];
    assert.equal(error.code, 'ECONNREFUSED');
    await printer.acceptConnections();
    assert.equal(printer.port, port);
    (await dial(printer)).destroy();
    await printer.stop();
  });

  test('drops the connection after the given number of bytes', async () => {
    const printer = await FakePrinter.start();
    printer.dropAfter(3);
    const socket = await dial(printer);
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.on('error', () => undefined);
    socket.write(Buffer.from('ABCDEFGH'));
    await closed;
    assert.equal(printer.bytes().toString(), 'ABC');
    await printer.stop();
  });

  test('ends idle connections on request and counts the ones open', async () => {
    const printer = await FakePrinter.start();
    const socket = await dial(printer);
    await printer.waitForConnections(1);
    assert.equal(printer.openConnections, 1);
    const ended = once(socket, 'end');
    await printer.closeConnections();
    await ended;
    assert.equal(printer.openConnections, 0);
    (await dial(printer)).destroy();
    await printer.waitForNoConnections();
    await printer.stop();
  });
});
