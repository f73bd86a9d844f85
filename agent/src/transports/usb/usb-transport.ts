import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterTarget } from '../../config/printer-uri.js';
import { decodeEscposStatus, DLE_EOT_REQUEST, isStatusByte } from '../escpos-status.js';
import type { PrinterStatusReport, Transport, TransportOptions } from '../transport.js';
import { findPrinterInterface, type PrinterInterface } from './printer-interfaces.js';
import { UsbError, type UsbBackend, type UsbDeviceLike } from './usb-device.js';

/** Defaults of the USB transport. */
export const USB_DEFAULTS = {
  /** A printer that takes no bulk transfer for 15 s is stuck (paper out mid-job, jammed). */
  writeTimeoutMs: 15_000,
  /** Real-time status is answered at once; 500 ms tells a silent printer from a slow one. */
  statusTimeoutMs: 500,
  /** Bytes per bulk OUT transfer: a printer's receive buffer is a few KB to 64 KB. */
  chunkBytes: 16 * 1024,
  /** Bytes asked for per bulk IN transfer (a full-speed packet). */
  inPacketBytes: 64,
} as const;

type UsbTarget = Extract<PrinterTarget, { connection: 'usb' }>;

function hex4(n: number): string {
  return n.toString(16).padStart(4, '0');
}

/**
 * The fix for "access denied", per OS: on Linux a udev rule, on Windows the WinUSB driver
 * (Zadig), on macOS releasing the printer from the system's print queue.
 */
export function usbAccessFix(
  vendorId: number,
  productId: number,
  platform = process.platform,
): string {
  const vid = hex4(vendorId);
  const pid = hex4(productId);
  if (platform === 'win32') {
    return (
      `Windows lets programs talk to a USB device only through the WinUSB driver: install it for ` +
      `${vid}:${pid} with Zadig (https://zadig.akeo.ie, "Options > List All Devices", choose the ` +
      `printer, WinUSB, "Replace Driver"), or print through the Windows queue instead with a ` +
      `system:QUEUE_NAME printer URI`
    );
  }
  if (platform === 'darwin') {
    return (
      `remove the printer from System Settings > Printers & Scanners so that macOS releases it, ` +
      `or print through its queue with a system:QUEUE_NAME printer URI`
    );
  }
  return (
    `let the agent's user open the device with a udev rule: write ` +
    `SUBSYSTEM=="usb", ATTRS{idVendor}=="${vid}", ATTRS{idProduct}=="${pid}", MODE="0660", ` +
    `GROUP="lp", TAG+="uaccess" to /etc/udev/rules.d/60-printwire.rules, add the user to the lp ` +
    `group, run sudo udevadm control --reload-rules && sudo udevadm trigger, and plug the ` +
    `printer in again`
  );
}

function describe(target: UsbTarget): string {
  const serial = target.serial === null ? '' : ` (serial ${target.serial})`;
  return `USB printer ${hex4(target.vendorId)}:${hex4(target.productId)}${serial}`;
}

/** A failure of the device as the job error the core understands. */
function jobError(target: UsbTarget, error: unknown, during: 'open' | 'io'): PrintwireError {
  if (error instanceof PrintwireError) return error;
  const usbError = error instanceof UsbError ? error : null;
  const what = describe(target);
  const why = error instanceof Error ? error.message : String(error);
  switch (usbError?.failure) {
    case 'access':
      return new PrintwireError(
        'CONNECTION_REFUSED',
        `access to ${what} was denied (${why}); to fix it, ${usbAccessFix(target.vendorId, target.productId)}`,
        { cause: error },
      );
    case 'busy':
      return new PrintwireError(
        'CONNECTION_REFUSED',
        `${what} is in use by another program or driver (${why})`,
        { cause: error },
      );
    case 'timeout':
      return new PrintwireError('TIMEOUT', `${what} took no data in time (${why})`, {
        cause: error,
      });
    case 'no_device':
      return during === 'open'
        ? new PrintwireError('PRINTER_OFFLINE', `${what} is not connected`, { cause: error })
        : new PrintwireError('CONNECTION_LOST', `${what} was unplugged (${why})`, { cause: error });
    default:
      return new PrintwireError(
        during === 'open' ? 'PRINTER_OFFLINE' : 'CONNECTION_LOST',
        `${what}: ${why}`,
        { cause: error },
      );
  }
}

/**
 * The printer class's port status byte (USB Printer Class 1.1, GET_PORT_STATUS): bit 5 paper
 * empty, bit 4 selected, bit 3 not error. Pure.
 */
export function decodePortStatus(status: number): PrinterStatusReport {
  if (status & 0x20) return { status: 'paper_out', detail: 'paper out' };
  if (!(status & 0x08)) return { status: 'error', detail: 'printer reports an error' };
  if (!(status & 0x10)) return { status: 'offline', detail: 'printer is not selected (offline)' };
  return { status: 'online', detail: null };
}

/**
 * A printer on USB through libusb: the printer-class interface (or a known ESC/POS vendor's
 * vendor-specific one), bulk OUT for the job in chunks, bulk IN for `DLE EOT` status where the
 * printer has an IN endpoint. The kernel driver (Linux usblp) is detached while the agent
 * holds the printer and re-attached on close.
 */
export class UsbTransport implements Transport {
  readonly #target: UsbTarget;
  readonly #backend: UsbBackend;
  readonly #options: Required<Pick<TransportOptions, 'writeTimeoutMs' | 'statusTimeoutMs'>>;
  readonly #answersStatus: boolean;
  #device: UsbDeviceLike | null = null;
  #iface: PrinterInterface | null = null;
  #failure: PrintwireError | null = null;

  constructor(target: UsbTarget, backend: UsbBackend, options: TransportOptions = {}) {
    this.#target = target;
    this.#backend = backend;
    this.#answersStatus = (options.language ?? 'escpos') === 'escpos';
    this.#options = {
      writeTimeoutMs: options.writeTimeoutMs ?? USB_DEFAULTS.writeTimeoutMs,
      statusTimeoutMs: options.statusTimeoutMs ?? USB_DEFAULTS.statusTimeoutMs,
    };
  }

  async open(): Promise<void> {
    const target = this.#target;
    let attached: UsbDeviceLike[];
    try {
      attached = this.#backend.list();
    } catch (error) {
      throw jobError(target, error, 'open');
    }
    const candidates = attached.filter(
      (d) => d.vendorId === target.vendorId && d.productId === target.productId,
    );
    if (candidates.length === 0) {
      throw new PrintwireError('PRINTER_OFFLINE', `${describe(target)} is not connected`);
    }
    let lastError: unknown = null;
    for (const device of candidates) {
      const iface = findPrinterInterface(device);
      if (!iface) {
        lastError = new PrintwireError(
          'UNSUPPORTED_JOB',
          `${describe(target)} has no printer interface with a bulk OUT endpoint`,
        );
        continue;
      }
      try {
        await device.open();
        if (target.serial !== null && (await device.readStrings()).serial !== target.serial) {
          await device.close();
          continue;
        }
        await device.claim(iface.interfaceNumber);
      } catch (error) {
        await device.close();
        lastError = error;
        continue;
      }
      this.#device = device;
      this.#iface = iface;
      return;
    }
    if (lastError === null) {
      throw new PrintwireError('PRINTER_OFFLINE', `${describe(target)} is not connected`);
    }
    throw jobError(target, lastError, 'open');
  }

  #live(): { device: UsbDeviceLike; iface: PrinterInterface } {
    if (this.#failure) throw this.#failure;
    if (!this.#device || !this.#iface) {
      throw new PrintwireError('CONNECTION_LOST', 'the transport is not open');
    }
    return { device: this.#device, iface: this.#iface };
  }

  #fail(error: unknown): PrintwireError {
    const e = jobError(this.#target, error, 'io');
    // A lost device stays lost for this transport; a timeout may pass.
    if (e.code === 'CONNECTION_LOST') this.#failure = e;
    return e;
  }

  async write(bytes: Uint8Array): Promise<void> {
    const { device, iface } = this.#live();
    for (let at = 0; at < bytes.length; at += USB_DEFAULTS.chunkBytes) {
      try {
        await device.transferOut(
          iface.bulkOut,
          bytes.subarray(at, at + USB_DEFAULTS.chunkBytes),
          this.#options.writeTimeoutMs,
        );
      } catch (error) {
        throw this.#fail(error);
      }
    }
  }

  /**
   * ESC/POS printers with a bulk IN endpoint are asked `DLE EOT`; printer-class devices that do
   * not answer it (label printers, one-way interfaces) are asked the class's GET_PORT_STATUS.
   * Null when the printer answers neither.
   */
  async readStatus(): Promise<PrinterStatusReport | null> {
    const { iface } = this.#live();
    if (this.#answersStatus && iface.bulkIn !== null) {
      const report = await this.#readDleEot();
      if (report) return report;
    }
    return iface.printerClass ? this.#readPortStatus() : null;
  }

  async #readDleEot(): Promise<PrinterStatusReport | null> {
    const { device, iface } = this.#live();
    const deadline = performance.now() + this.#options.statusTimeoutMs;
    const answers: number[] = [];
    try {
      await device.transferOut(iface.bulkOut, DLE_EOT_REQUEST, this.#options.statusTimeoutMs);
      while (answers.length < 4) {
        const left = Math.round(deadline - performance.now());
        if (left <= 0) break;
        let chunk: Uint8Array;
        try {
          chunk = await device.transferIn(iface.bulkIn!, USB_DEFAULTS.inPacketBytes, left);
        } catch (error) {
          if (error instanceof UsbError && error.failure === 'timeout') break;
          throw error;
        }
        for (const byte of chunk) if (isStatusByte(byte)) answers.push(byte);
      }
    } catch (error) {
      throw this.#fail(error);
    }
    return answers.length === 0 ? null : decodeEscposStatus(answers.slice(0, 4));
  }

  async #readPortStatus(): Promise<PrinterStatusReport | null> {
    const { device, iface } = this.#live();
    let status: number;
    try {
      status = await device.getPortStatus(iface.interfaceNumber, this.#options.statusTimeoutMs);
    } catch (error) {
      if (error instanceof UsbError && error.failure === 'no_device') throw this.#fail(error);
      return null;
    }
    return decodePortStatus(status);
  }

  async close(): Promise<void> {
    const device = this.#device;
    this.#device = null;
    this.#iface = null;
    await device?.close().catch(() => undefined);
  }
}

/**
 * The factory the registry maps `usb` to, for a backend (`nodeUsbBackend` in the agent, a
 * recording double in tests). Label printers (zpl, epl) get no DLE EOT.
 */
export function usbTransportFactory(backend: UsbBackend) {
  return (target: PrinterTarget, options: TransportOptions = {}): Transport => {
    if (target.connection !== 'usb') throw new Error(`not a usb target: ${target.connection}`);
    return new UsbTransport(target, backend, options);
  };
}
