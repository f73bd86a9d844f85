/**
 * The ePOS-Print XML interpreter and its XML reader, fed documents written from Epson's
 * reference and samples (not from the encoder): what each element prints, and how a document a
 * TM printer would refuse or misprint is reported.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { interpretEposXml } from './interpreter.js';
import { parseXml, XmlError } from './xml.js';

const NS = 'http://www.epson-pos.com/schemas/2011/03/epos-print';

function print(body: string, paper: '58mm' | '80mm' = '80mm') {
  return interpretEposXml(Buffer.from(`<epos-print xmlns="${NS}">${body}</epos-print>`), { paper });
}

describe('ePOS-Print XML interpreter', () => {
  test("Epson's sample ticket prints: text styles, feed, barcode and cut", () => {
    const page = print(
      '<text lang="en"/><text smooth="true"/><text align="center"/><text font="font_b"/>' +
        '<text width="2" height="2"/><text reverse="false" ul="false" em="true" color="color_1"/>' +
        '<text>DELIVERY TICKET&#10;</text><feed unit="12"/><text width="1" height="1"/><text font="font_a"/>' +
        '<text>Order&#9;0001&#10;</text>' +
        '<barcode type="code39" hri="none" font="font_a" width="2" height="60">0001</barcode>' +
        '<feed line="3"/><cut type="feed"/>',
    );
    assert.deepEqual(page.warnings, []);
    const [title, order] = page.textRuns;
    assert.equal(title!.text, 'DELIVERY TICKET');
    assert.deepEqual(title!.style, {
      font: 'B',
      bold: true,
      underline: 0,
      invert: false,
      width: 2,
      height: 2,
    });
    assert.equal(order!.text, 'Order');
    assert.equal(page.textRuns[2]!.text, '0001', 'after the tab stop');
    assert.equal(page.graphics[0]!.symbology, 'CODE39');
    assert.deepEqual(
      page.cuts.map((c) => c.mode),
      ['partial'],
    );
  });

  test('text is Unicode: accents and the euro sign print as themselves', () => {
    const page = print('<text>Crème brûlée 4,50 €&#10;</text>');
    assert.equal(page.textRuns[0]!.text, 'Crème brûlée 4,50 €');
  });

  test('a QR code (<symbol type="qrcode_model_2">) prints its data with the module width', () => {
    const page = print(
      '<symbol type="qrcode_model_2" level="level_h" width="5" height="0" size="0">PW-42</symbol>',
    );
    assert.deepEqual(page.warnings, []);
    assert.equal(page.graphics[0]!.data, 'PW-42');
    assert.equal(page.graphics[0]!.width % 5, 0);
  });

  test('an <image> of mono rows, MSB first, prints at its alignment', () => {
    const page = print(
      '<text align="center"/><image width="8" height="2" color="color_1" mode="mono">8A8=</image>',
    );
    assert.deepEqual(page.warnings, []);
    assert.deepEqual([page.graphics[0]!.x, page.graphics[0]!.width], [284, 8]);
  });

  test('an <image> whose data is not width/8 × height bytes is reported', () => {
    const page = print('<image width="16" height="2">//8=</image>');
    assert.deepEqual(page.warnings, ['<image> of 16 × 2 dots carries 2 bytes, not 4']);
  });

  test('<pulse> opens drawer 1 or 2 for its time; <feed> with no attribute feeds one line', () => {
    const page = print('<pulse drawer="drawer_2" time="pulse_200"/><feed/><pulse/>');
    assert.deepEqual(
      page.drawerPulses.map((d) => [d.pin, d.onMs]),
      [
        [5, 200],
        [2, 100],
      ],
    );
    assert.equal(page.height, 30);
  });

  test('an element or attribute the reference does not list is reported, and an xmlns="" too', () => {
    const page = print('<bold/><text size="2">x&#10;</text><cut xmlns="" type="feed"/>');
    assert.deepEqual(page.warnings, [
      '<bold> is not an ePOS-Print element: skipped',
      '<text size> is not an ePOS-Print attribute: ignored',
      '<cut xmlns> is not an ePOS-Print attribute: ignored',
    ]);
  });

  test('a document that is not well-formed, or not <epos-print> in Epson namespace, prints nothing', () => {
    const bad = interpretEposXml(Buffer.from(`<epos-print xmlns="${NS}"><text>x</epos-print>`), {
      paper: '80mm',
    });
    assert.match(bad.warnings[0]!, /^not well-formed XML: <\/epos-print> closes <text>/);
    const soap = interpretEposXml(Buffer.from('<s:Envelope><s:Body/></s:Envelope>'), {
      paper: '58mm',
    });
    assert.deepEqual(soap.warnings, [
      'the root element is <s:Envelope>, not <epos-print>: nothing printed',
    ]);
    const noNs = interpretEposXml(Buffer.from('<epos-print><text>x&#10;</text></epos-print>'), {
      paper: '58mm',
    });
    assert.equal(noNs.textRuns.length, 0);
    assert.match(noNs.warnings[0]!, /is not in the namespace/);
  });
});

describe('XML reader', () => {
  test('reads elements, attributes in either quote, entities, character references and CDATA', () => {
    const root = parseXml(
      `<?xml version="1.0" encoding="utf-8"?><!-- c --><a x='1' y="&lt;&#233;&#xE9;"><b/>t&amp;<![CDATA[<raw>]]></a>`,
    );
    assert.equal(root.name, 'a');
    assert.deepEqual(
      [...root.attributes],
      [
        ['x', '1'],
        ['y', '<éé'],
      ],
    );
    assert.deepEqual(root.children.slice(1), ['t&', '<raw>']);
  });

  const broken: Array<[string, RegExp]> = [
    ['<a>', /<a> is not closed/],
    ['<a></b>', /<\/b> closes <a>/],
    ['<a x=1/>', /attribute x's value must be quoted/],
    ['<a x="1" x="2"/>', /attribute x is repeated/],
    ['<a>&nbsp;</a>', /entity &nbsp; is unknown/],
    ['<a>&</a>', /a bare "&"/],
    ['<a>&#0;</a>', /character reference &#0; is invalid/],
    ['<a/><b/>', /content after the root element/],
    ['<a x="<"/>', /"<" in an attribute value/],
  ];
  for (const [xml, message] of broken) {
    test(`refuses ${xml} and says why`, () => {
      assert.throws(
        () => parseXml(xml),
        (e: unknown) => e instanceof XmlError && message.test(e.message),
      );
    });
  }
});
