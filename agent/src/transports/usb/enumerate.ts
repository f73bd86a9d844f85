import { findPrinterInterface, KNOWN_PRINTER_VENDORS } from './printer-interfaces.js';
import { UsbError, type UsbBackend } from './usb-device.js';
import { usbAccessFix } from './usb-transport.js';

/** A USB printer found by enumeration. */
export interface UsbPrinterInfo {
  vendorId: number;
  productId: number;
  serial: string | null;
  manufacturer: string | null;
  product: string | null;
  /** The printer URI that reaches it: `usb://VID:PID[/SERIAL]`, with `lang=zpl` for Zebra. */
  uri: string;
  language: 'escpos' | 'zpl';
  /** Has a bulk IN endpoint (ESC/POS `DLE EOT` answers come back). */
  bidirectional: boolean;
  /** Status can be read: `DLE EOT` on bulk IN, or the printer class's port status. */
  reportsStatus: boolean;
  /** Why the names are missing, with the fix (access denied), else null. */
  problem: string | null;
}

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

/**
 * The printers among the attached USB devices: printer-class interfaces, and known ESC/POS
 * vendors' vendor-specific interfaces with a bulk OUT endpoint. Devices are opened only to read
 * their names and serial number; one that cannot be opened is listed without them.
 */
export async function listUsbPrinters(backend: UsbBackend): Promise<UsbPrinterInfo[]> {
  const found: UsbPrinterInfo[] = [];
  for (const device of backend.list()) {
    const iface = findPrinterInterface(device);
    if (!iface) continue;
    let strings = {
      serial: null as string | null,
      product: null as string | null,
      manufacturer: null as string | null,
    };
    let problem: string | null = null;
    try {
      await device.open();
      strings = await device.readStrings();
    } catch (error) {
      problem =
        error instanceof UsbError && error.failure === 'access'
          ? `access denied; ${usbAccessFix(device.vendorId, device.productId)}`
          : `cannot be opened (${(error as Error).message})`;
    } finally {
      await device.close();
    }
    const language = KNOWN_PRINTER_VENDORS[device.vendorId]?.language ?? 'escpos';
    const base = `usb://${hex4(device.vendorId)}:${hex4(device.productId)}`;
    const path = strings.serial ? `${base}/${encodeURIComponent(strings.serial)}` : base;
    found.push({
      vendorId: device.vendorId,
      productId: device.productId,
      ...strings,
      uri: language === 'escpos' ? path : `${path}?lang=${language}`,
      language,
      bidirectional: iface.bulkIn !== null,
      reportsStatus: iface.bulkIn !== null || iface.printerClass,
      problem,
    });
  }
  return found;
}
