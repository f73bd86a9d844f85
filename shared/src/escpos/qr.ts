/**
 * GS ( k QR code printing: the symbol's modules from the `qrcode` package, drawn `moduleSize`
 * dots square. Like an Epson printer, no quiet zone is drawn around the symbol: the white paper
 * around it is the quiet zone, and a left- or right-aligned code keeps it only as far as the
 * print area's margin allows.
 */
import QRCode from 'qrcode';
import type { Printer } from './printer.js';
import type { WarningLog } from './warnings.js';

export function printQr(printer: Printer, warnings: WarningLog): void {
  const { data, moduleSize, errorLevel } = printer.state.qr;
  if (!data || data.length === 0) {
    warnings.add('QR print (GS ( k fn 81) with no stored data: nothing printed');
    return;
  }
  let modules: { size: number; data: Uint8Array };
  try {
    // Byte mode, as the printer encodes the stored bytes.
    modules = QRCode.create([{ data: data, mode: 'byte' }], {
      errorCorrectionLevel: errorLevel,
    }).modules;
  } catch (e) {
    warnings.add(`QR code not printed: ${(e as Error).message}`);
    return;
  }
  const side = modules.size * moduleSize;
  if (side > printer.printArea().width) {
    warnings.add(`QR code of ${side} dots does not fit the print area: not printed`);
    return;
  }
  const at = printer.beginBlock(side, side, 'QR code');
  if (!at) return;
  for (let r = 0; r < modules.size; r++) {
    for (let c = 0; c < modules.size; c++) {
      if (modules.data[r * modules.size + c]) {
        printer.canvas.fill(at.x + c * moduleSize, at.y + r * moduleSize, moduleSize, moduleSize);
      }
    }
  }
  printer.graphics.push({
    kind: 'qr',
    x: at.x,
    y: at.y,
    width: side,
    height: side,
    symbology: 'QR',
    data: Buffer.from(data).toString('latin1'),
  });
  printer.endBlock(side);
}
