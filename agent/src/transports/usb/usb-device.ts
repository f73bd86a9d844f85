/**
 * The USB device as the transport sees it: a small interface over the `usb` package so that
 * tests drive the transport with a recording double (no USB hardware in CI) and the real
 * binding stays a thin adapter (`node-usb-backend.ts`).
 */

/** One endpoint of an interface. `address` has bit 7 set for IN endpoints. */
export interface UsbEndpointInfo {
  address: number;
  direction: 'in' | 'out';
  transfer: 'bulk' | 'interrupt' | 'isochronous' | 'control';
}

/** One interface (its first alternate setting) of the active configuration. */
export interface UsbInterfaceInfo {
  number: number;
  /** bInterfaceClass: 7 is printer, 0xff vendor specific. */
  classCode: number;
  subclass: number;
  /** For printers: 1 unidirectional, 2 bidirectional, 3 IEEE 1284.4. */
  protocol: number;
  endpoints: UsbEndpointInfo[];
}

/** What went wrong, independent of libusb's numbers. */
export type UsbFailure = 'access' | 'no_device' | 'busy' | 'timeout' | 'not_found' | 'io';

export class UsbError extends Error {
  readonly failure: UsbFailure;
  constructor(failure: UsbFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'UsbError';
    this.failure = failure;
  }
}

/** A USB device found by enumeration. Methods reject with `UsbError`. */
export interface UsbDeviceLike {
  readonly vendorId: number;
  readonly productId: number;
  readonly interfaces: readonly UsbInterfaceInfo[];
  /** Opens the device; rejects with `access` when the OS does not let this user open it. */
  open(): Promise<void>;
  /** The string descriptors (serial number, product, manufacturer); the device must be open. */
  readStrings(): Promise<{
    serial: string | null;
    product: string | null;
    manufacturer: string | null;
  }>;
  /**
   * Claims an interface for this process, detaching the OS's kernel driver first where one is
   * bound (Linux usblp); `close` gives it back.
   */
  claim(interfaceNumber: number): Promise<void>;
  /** One bulk OUT transfer; resolves when the device took every byte. */
  transferOut(endpoint: number, data: Uint8Array, timeoutMs: number): Promise<void>;
  /**
   * The printer class's GET_PORT_STATUS (class request 1 to the interface): bit 5 paper empty,
   * bit 4 selected, bit 3 not error. Rejects when the device does not support it.
   */
  getPortStatus(interfaceNumber: number, timeoutMs: number): Promise<number>;
  /** One bulk IN transfer of at most `length` bytes; `timeout` when the device sent nothing. */
  transferIn(endpoint: number, length: number, timeoutMs: number): Promise<Uint8Array>;
  /** Releases claimed interfaces, re-attaches kernel drivers and closes; never rejects. */
  close(): Promise<void>;
}

/** Lists the USB devices attached now. */
export interface UsbBackend {
  list(): UsbDeviceLike[];
  /**
   * Calls `onChange` when a USB device is attached or detached, where the platform reports it;
   * returns the way to stop. Absent: discovery only looks on its interval.
   */
  watch?(onChange: () => void): () => void;
}
