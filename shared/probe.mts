import { encodeReceipt } from './src/receipt/index.js';
const LINES = ['مرحبا بكم في المتجر','שלום עולם, תודה רבה','สวัสดีครับ ขอบคุณที่มาใช้บริการ','नमस्ते आपका स्वागत है','Καλημέρα σας, ευχαριστούμε','欢迎光临本店，谢谢惠顾','いらっしゃいませ、東京店へ','안녕하세요 환영합니다','قهوة بالحليب 12.50','拿铁咖啡 大杯 3.00'];
const doc = { blocks: LINES.map((value) => ({ type: 'text', value })) };
encodeReceipt(doc, 'generic-80mm');
const t = performance.now();
for (let i = 0; i < 20; i++) encodeReceipt(doc, 'generic-80mm');
console.log('avg ms', (performance.now() - t) / 20);
