import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compileTemplate,
  renderReceiptDocument,
  renderTemplate,
  zplCommands,
} from '../template/index.js';
import { hostileLike, seededRandom } from '../template/hostile.js';
import { GALLERY_CATEGORIES, GALLERY_LOCALES, gallery, getGalleryTemplate } from './index.js';

const byCategory = (category: string) => gallery.filter((t) => t.category === category);

describe('the gallery', () => {
  test('offers 5 receipts, 5 labels, 5 reports and 5 estimates with unique ids', () => {
    assert.equal(gallery.length, 20);
    for (const category of GALLERY_CATEGORIES)
      assert.equal(byCategory(category).length, 5, category);
    assert.equal(new Set(gallery.map((t) => t.id)).size, 20);
    assert.equal(getGalleryTemplate('label-shipping-4x6')?.type, 'zpl');
    assert.equal(getGalleryTemplate('nope'), undefined);
  });

  test('every category has templates in English, French and Haitian Creole', () => {
    for (const category of GALLERY_CATEGORIES) {
      assert.deepEqual(
        new Set(byCategory(category).map((t) => t.locale)),
        new Set(GALLERY_LOCALES),
        category,
      );
    }
  });

  test('receipts are receipt templates, labels ZPL or EPL, reports and estimates HTML', () => {
    for (const t of byCategory('receipt')) assert.equal(t.type, 'receipt', t.id);
    for (const t of byCategory('label')) assert.ok(t.type === 'zpl' || t.type === 'epl', t.id);
    for (const t of [...byCategory('report'), ...byCategory('estimate')])
      assert.equal(t.type, 'html', t.id);
    assert.ok(
      byCategory('label').some((t) => t.id === 'label-shipping-4x6' && t.paper === '4x6in'),
    );
    assert.ok(byCategory('label').some((t) => t.type === 'epl'));
  });

  for (const t of gallery) {
    test(`${t.id} renders with its sample data`, () => {
      const out = renderTemplate(t.content, t.sampleData, t.type);
      assert.ok(out.length > 200);
      assert.doesNotMatch(out, /\{\{|\}\}/);
    });
  }
});

describe('gallery receipts', () => {
  for (const t of byCategory('receipt')) {
    test(`${t.id} is a valid receipt document on ${t.paper} paper`, () => {
      const doc = renderReceiptDocument(t.content, t.sampleData);
      assert.equal(doc.width, t.paper);
      assert.ok(doc.blocks.length >= 10);
      assert.equal(doc.blocks[doc.blocks.length - 1]!.type, 'cut');
    });
  }

  test('the kitchen ticket prints large text', () => {
    const t = getGalleryTemplate('receipt-kitchen-ticket')!;
    const doc = renderReceiptDocument(t.content, t.sampleData);
    assert.ok(doc.blocks.some((b) => b.type === 'text' && b.size >= 3));
  });

  test('the restaurant bill shows the table and tip lines', () => {
    const t = getGalleryTemplate('receipt-restaurant-bill')!;
    const text = JSON.stringify(renderReceiptDocument(t.content, t.sampleData));
    assert.match(text, /Table 12/);
    assert.equal((text.match(/ %","right":"[\d,]+ € {2}-> total/g) ?? []).length, 3);
  });

  for (const t of byCategory('receipt')) {
    test(`${t.id} prints through the virtual printer`, async () => {
      const { encodeReceipt } = await import('../receipt/index.js');
      const { interpretEscpos, renderEscposToPng } = await import('../escpos/index.js');
      const paper = t.paper as '58mm' | '80mm';
      const bytes = encodeReceipt(
        renderReceiptDocument(t.content, t.sampleData),
        `generic-${paper}`,
      );
      const page = interpretEscpos(bytes, { paper });
      assert.equal(page.width, paper === '58mm' ? 384 : 576);
      assert.ok(page.cuts.length >= 1);
      const printed = page.textRuns.map((r) => r.text).join('\n');
      const first = renderReceiptDocument(t.content, t.sampleData).blocks[0] as { value: string };
      assert.ok(printed.includes(first.value), `"${first.value}" not printed`);
      const png = await renderEscposToPng(bytes, { paper });
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    });
  }
});

/** Splits ZPL into formats and checks each is ^XA … ^XZ with nothing but line breaks between. */
function zplFormats(out: string): string[][] {
  const commands = zplCommands(out);
  const formats: string[][] = [];
  let current: string[] | undefined;
  for (const c of commands) {
    if (c === '^XA') {
      assert.equal(current, undefined, '^XA inside a format');
      current = [];
    } else if (c === '^XZ') {
      assert.notEqual(current, undefined, '^XZ without ^XA');
      formats.push(current!);
      current = undefined;
    } else {
      assert.notEqual(current, undefined, `${c} outside a format`);
      current!.push(c);
    }
  }
  assert.equal(current, undefined, 'format not closed with ^XZ');
  assert.match(out.trim(), /^\^XA[\s\S]*\^XZ$/);
  return formats;
}

describe('gallery labels', () => {
  for (const t of byCategory('label').filter((l) => l.type === 'zpl')) {
    test(`${t.id} renders one or more well-formed ^XA…^XZ formats`, () => {
      const formats = zplFormats(renderTemplate(t.content, t.sampleData, 'zpl'));
      assert.ok(formats.length >= 1);
      for (const f of formats)
        assert.equal(
          f.filter((c) => c === '^FD').length,
          f.filter((c) => c === '^FS').length - f.filter((c) => c === '^GB').length,
        );
    });

    test(`${t.id} writes every value into its fields through ^FH`, () => {
      for (const field of t.content.split('^FS')) {
        const data = field.indexOf('^FD');
        if (data !== -1 && field.slice(data).includes('{{'))
          assert.match(field.slice(0, data), /\^FH/, field);
      }
    });

    test(`${t.id} keeps its commands with hostile data`, () => {
      const compiled = compileTemplate(t.content, 'zpl');
      const expected = zplCommands(compiled.render(t.sampleData));
      for (let seed = 1; seed <= 30; seed++) {
        assert.deepEqual(
          zplCommands(
            compiled.render(hostileLike(t.sampleData, seededRandom(seed), { stringsOnly: true })),
          ),
          expected,
          `seed ${seed}`,
        );
      }
    });
  }

  for (const t of byCategory('label').filter((l) => l.type === 'epl')) {
    test(`${t.id} renders EPL labels that each clear the buffer and print`, () => {
      const lines = renderTemplate(t.content, t.sampleData, 'epl').trimEnd().split('\n');
      assert.equal(lines[0], 'N');
      assert.match(lines[lines.length - 1]!, /^P\d+$/);
      assert.equal(
        lines.filter((l) => l === 'N').length,
        lines.filter((l) => /^P\d+$/.test(l)).length,
      );
    });

    test(`${t.id} keeps its lines with hostile data`, () => {
      const compiled = compileTemplate(t.content, 'epl');
      const shape = (out: string) => out.split('\n').map((l) => l.charAt(0));
      const expected = shape(compiled.render(t.sampleData));
      for (let seed = 1; seed <= 30; seed++) {
        assert.deepEqual(
          shape(
            compiled.render(hostileLike(t.sampleData, seededRandom(seed), { stringsOnly: true })),
          ),
          expected,
          `seed ${seed}`,
        );
      }
    });
  }
});

describe('gallery reports and estimates', () => {
  const pages = [...byCategory('report'), ...byCategory('estimate')];

  for (const t of pages) {
    test(`${t.id} is a full HTML page with @page size ${t.paper} and margins`, () => {
      const out = renderTemplate(t.content, t.sampleData, 'html');
      assert.match(out, /^<!doctype html>\n<html lang="(en|fr|ht)">/);
      assert.match(out, new RegExp(`<html lang="${t.locale}">`));
      assert.match(
        out,
        /<head>[\s\S]*<meta charset="utf-8">[\s\S]*<title>[^<]+<\/title>[\s\S]*<\/head>\s*<body>[\s\S]*<\/body>\s*<\/html>\s*$/,
      );
      assert.match(out, new RegExp(`@page \\{ size: ${t.paper}; margin: [^;]+; \\}`));
    });
  }

  test('both A4 and Letter pages are represented among reports and among estimates', () => {
    for (const category of ['report', 'estimate']) {
      assert.deepEqual(
        new Set(byCategory(category).map((t) => t.paper)),
        new Set(['A4', 'Letter']),
        category,
      );
    }
  });
});
