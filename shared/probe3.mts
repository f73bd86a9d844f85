const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
import { Paragraph, drawRow } from './src/text/index.js';
import { encodeReceipt } from './src/receipt/index.js';
import { getFont } from './src/escpos/fonts.js';
const LINES = ['مرحبا بكم في المتجر','שלום עולם, תודה רבה','สวัสดีครับ ขอบคุณที่มาใช้บริการ','नमस्ते आपका स्वागत है','Καλημέρα σας, ευχαριστούμε','欢迎光临本店，谢谢惠顾','いらっしゃいませ、東京店へ','안녕하세요 환영합니다','قهوة بالحليب 12.50','拿铁咖啡 大杯 3.00'];
const f = getFont('A');
const pt = { encode: (s: string) => s, carries: (c: number) => c < 0x7f, replaces: () => false, glyph: (b: number) => f.glyphs.get(b) ?? f.missing, cellWidth: 12, cellHeight: 24, baseline: 19 };
const doc = { blocks: LINES.map((value) => ({ type: 'text', value })) };
for (let k = 0; k < 3; k++) encodeReceipt(doc, 'generic-80mm');
const N = 50;
let tp = 0, tl = 0, td = 0, tpk = 0, te = 0;
for (let i = 0; i < N; i++) {
  for (const l of LINES) {
    let t = cpu();
    const p = new Paragraph(l, pt, 1); tp += cpu() - t; t = cpu();
    const lines = p.lines(576); tl += cpu() - t; t = cpu();
    const b = drawRow([{ line: lines[0]!, x: 0 }], 576, pt, { size: 1, bold: false, underline: false, invert: false }, 30); td += cpu() - t; t = cpu();
    b.packRows(); tpk += cpu() - t;
  }
  const t = cpu(); encodeReceipt(doc, 'generic-80mm'); te += cpu() - t;
}
console.log({ paragraph: tp / N, lines: tl / N, draw: td / N, pack: tpk / N, encode: te / N });
