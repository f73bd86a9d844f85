import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePrinterUri } from '../config/printer-uri.js';
import { defaultRegistry } from '../agent.js';

/**
 * The transport contract against a real printer, when `PRINTWIRE_TEST_PRINTER` names one
 * (`PRINTWIRE_TEST_PRINTER='tcp://192.168.1.50' npm test -- real-printer`). It prints one short
 * slip. Without the variable it is skipped; the same behaviour runs against the fake printer in
 * tcp/tcp-transport.test.ts.
 */
const uri = process.env.PRINTWIRE_TEST_PRINTER;

describe(
  'transport contract on a real printer',
  { skip: uri ? false : 'PRINTWIRE_TEST_PRINTER is not set' },
  () => {
    test('the printer takes a short job and reports its status before and after', async () => {
      const spec = parsePrinterUri(uri!);
      const transport = defaultRegistry().create(spec.target, { language: spec.language });
      await transport.open();
      const before = await transport.readStatus();
      assert.ok(
        before === null || before.status === 'online',
        `printer not ready: ${before?.detail}`,
      );
      const slip = Buffer.from('\x1b@Printwire transport contract test\n\n\n\n\x1dV\x01', 'latin1');
      await transport.write(slip);
      const after = await transport.readStatus();
      assert.ok(after === null || after.status === 'online', `printer reports ${after?.detail}`);
      await transport.close();
    });
  },
);
