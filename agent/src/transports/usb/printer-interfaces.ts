import type { UsbDeviceLike, UsbInterfaceInfo } from './usb-device.js';

/** USB interface class of printers. */
export const USB_PRINTER_CLASS = 7;
const VENDOR_SPECIFIC_CLASS = 0xff;

/**
 * Vendors of ESC/POS receipt and label printers whose devices often present a vendor-specific
 * interface instead of the printer class. Used only together with a bulk OUT endpoint, since
 * some of these ids (the microcontroller makers) also make other devices.
 */
export const KNOWN_PRINTER_VENDORS: Readonly<
  Record<number, { name: string; language: 'escpos' | 'zpl' }>
> = {
  0x04b8: { name: 'Epson', language: 'escpos' },
  0x0519: { name: 'Star Micronics', language: 'escpos' },
  0x1d90: { name: 'Citizen', language: 'escpos' },
  0x2730: { name: 'Citizen', language: 'escpos' },
  0x1504: { name: 'Bixolon', language: 'escpos' },
  0x154f: { name: 'SNBC', language: 'escpos' },
  0x0dd4: { name: 'Custom', language: 'escpos' },
  0x0fe6: { name: 'ICS (Rongta, generic POS-80)', language: 'escpos' },
  0x0416: { name: 'Winbond (generic POS-58)', language: 'escpos' },
  0x0483: { name: 'STMicroelectronics (generic POS printers)', language: 'escpos' },
  0x1fc9: { name: 'NXP (Xprinter)', language: 'escpos' },
  0x28e9: { name: 'GigaDevice (generic POS printers)', language: 'escpos' },
  0x0a5f: { name: 'Zebra', language: 'zpl' },
};

/** The interface the agent prints through, with its bulk endpoints. */
export interface PrinterInterface {
  interfaceNumber: number;
  bulkOut: number;
  /** Where the printer answers status; null for unidirectional printers. */
  bulkIn: number | null;
  printerClass: boolean;
}

function bulk(iface: UsbInterfaceInfo, direction: 'in' | 'out'): number | null {
  return (
    iface.endpoints.find((e) => e.transfer === 'bulk' && e.direction === direction)?.address ?? null
  );
}

/**
 * The interface to print through: the printer-class interface when there is one, else (for a
 * known ESC/POS vendor) the first vendor-specific interface with a bulk OUT endpoint. Null when
 * the device is not a printer. Pure.
 */
export function findPrinterInterface(
  device: Pick<UsbDeviceLike, 'vendorId' | 'interfaces'>,
): PrinterInterface | null {
  const candidates = device.interfaces.filter((i) => bulk(i, 'out') !== null);
  const printer = candidates.find((i) => i.classCode === USB_PRINTER_CLASS);
  const vendor =
    device.vendorId in KNOWN_PRINTER_VENDORS
      ? candidates.find((i) => i.classCode === VENDOR_SPECIFIC_CLASS)
      : undefined;
  const chosen = printer ?? vendor;
  if (!chosen) return null;
  return {
    interfaceNumber: chosen.number,
    bulkOut: bulk(chosen, 'out')!,
    // Unidirectional printer-class interfaces (protocol 1) have no IN endpoint anyway.
    bulkIn: bulk(chosen, 'in'),
    printerClass: chosen.classCode === USB_PRINTER_CLASS,
  };
}
