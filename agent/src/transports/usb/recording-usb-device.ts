import {
  UsbError,
  type UsbBackend,
  type UsbDeviceLike,
  type UsbInterfaceInfo,
} from './usb-device.js';

export interface RecordingUsbDeviceOptions {
  vendorId: number;
  productId: number;
  interfaces: UsbInterfaceInfo[];
  serial?: string | null;
  product?: string | null;
  manufacturer?: string | null;
  /** The OS refuses to open the device (no udev rule, no WinUSB driver). */
  accessDenied?: boolean;
  /** Another driver holds the interface. */
  busy?: boolean;
  /** Answers DLE EOT on its bulk IN endpoint (when it has one). */
  answersStatus?: boolean;
  /** Bytes the device takes before it is pulled out; null: never. */
  unplugAfterBytes?: number | null;
  /** Largest bulk OUT transfer the device accepts at once (like its endpoint buffer). */
  maxTransferBytes?: number;
  /** Answers the printer class's GET_PORT_STATUS (default: when it has a printer interface). */
  portStatus?: boolean;
}

/** A printer-class interface with bulk OUT 0x01 and bulk IN 0x82 (bidirectional). */
export function printerClassInterface(number = 0, withBulkIn = true): UsbInterfaceInfo {
  return {
    number,
    classCode: 7,
    subclass: 1,
    protocol: withBulkIn ? 2 : 1,
    endpoints: [
      { address: 0x01, direction: 'out', transfer: 'bulk' },
      ...(withBulkIn
        ? [{ address: 0x82, direction: 'in' as const, transfer: 'bulk' as const }]
        : []),
    ],
  };
}

/**
 * A USB printer for tests that fails like hardware: it records every bulk OUT transfer,
 * rejects a transfer started while another is in flight (as libusb does on one endpoint),
 * answers `DLE EOT` on bulk IN, refuses access, and can be unplugged mid-job, after which every
 * call fails with `no_device`.
 */
export class RecordingUsbDevice implements UsbDeviceLike {
  readonly vendorId: number;
  readonly productId: number;
  readonly interfaces: UsbInterfaceInfo[];
  /** Every bulk OUT transfer, in order. */
  readonly transfers: Uint8Array[] = [];
  paperOut = false;
  coverOpen = false;
  opened = false;
  claimed: number[] = [];
  /** Kernel driver detached while claimed; re-attached on close. */
  kernelDriverAttached = true;
  unplugged = false;
  /** Bytes the device takes before it is pulled out; null: never. */
  unplugAfterBytes: number | null;
  /** Another handle holds the device exclusively (Windows while it prints): open fails. */
  busy = false;
  readonly #options: RecordingUsbDeviceOptions;
  #inFlight = false;
  #pendingStatus: number[] = [];
  #statusWaiters: Array<() => void> = [];

  constructor(options: RecordingUsbDeviceOptions) {
    this.vendorId = options.vendorId;
    this.productId = options.productId;
    this.interfaces = options.interfaces;
    this.#options = options;
    this.unplugAfterBytes = options.unplugAfterBytes ?? null;
  }

  /** Everything the printer received, as one buffer. */
  get received(): Buffer {
    return Buffer.concat(this.transfers);
  }

  /** Plugs the device in again; it takes bytes without limit. */
  replug(): void {
    this.unplugged = false;
    this.unplugAfterBytes = null;
  }

  /** Pulls the device out: transfers in flight and every later call fail. */
  unplug(): void {
    this.unplugged = true;
    for (const wake of this.#statusWaiters.splice(0)) wake();
  }

  #gone(): UsbError {
    return new UsbError('no_device', 'LIBUSB_ERROR_NO_DEVICE');
  }

  async open(): Promise<void> {
    if (this.unplugged) throw this.#gone();
    if (this.busy) throw new UsbError('busy', 'LIBUSB_ERROR_BUSY');
    if (this.#options.accessDenied) throw new UsbError('access', 'LIBUSB_ERROR_ACCESS');
    this.opened = true;
  }

  async readStrings() {
    if (!this.opened) throw new UsbError('io', 'device not open');
    return {
      serial: this.#options.serial ?? null,
      product: this.#options.product ?? null,
      manufacturer: this.#options.manufacturer ?? null,
    };
  }

  async claim(interfaceNumber: number): Promise<void> {
    if (this.unplugged) throw this.#gone();
    if (!this.opened) throw new UsbError('io', 'device not open');
    if (this.#options.busy) throw new UsbError('busy', 'LIBUSB_ERROR_BUSY');
    if (!this.interfaces.some((i) => i.number === interfaceNumber)) {
      throw new UsbError('not_found', 'LIBUSB_ERROR_NOT_FOUND');
    }
    this.kernelDriverAttached = false;
    this.claimed.push(interfaceNumber);
  }

  #endpoint(address: number) {
    return this.interfaces
      .filter((i) => this.claimed.includes(i.number))
      .flatMap((i) => i.endpoints)
      .find((e) => e.address === address);
  }

  async transferOut(endpoint: number, data: Uint8Array): Promise<void> {
    if (this.unplugged) throw this.#gone();
    if (this.#endpoint(endpoint)?.direction !== 'out') {
      throw new UsbError('not_found', `no claimed OUT endpoint 0x${endpoint.toString(16)}`);
    }
    if (this.#inFlight) throw new UsbError('busy', 'a transfer is already in flight');
    const max = this.#options.maxTransferBytes ?? Infinity;
    if (data.length > max) throw new UsbError('io', `transfer of ${data.length} > ${max} bytes`);
    this.#inFlight = true;
    try {
      // The bytes travel on the next turn of the event loop, as a real transfer completes later.
      await new Promise((resolve) => setImmediate(resolve));
      const limit = this.unplugAfterBytes;
      if (limit !== null && this.received.length + data.length > limit) {
        const taken = Math.max(0, limit - this.received.length);
        if (taken > 0) this.transfers.push(Uint8Array.from(data.subarray(0, taken)));
        this.unplug();
      }
      if (this.unplugged) throw this.#gone();
      this.transfers.push(Uint8Array.from(data));
      this.#answerStatus(data);
    } finally {
      this.#inFlight = false;
    }
  }

  #answerStatus(data: Uint8Array): void {
    if (!this.#options.answersStatus) return;
    for (let i = 0; i + 2 < data.length; i++) {
      if (data[i] !== 0x10 || data[i + 1] !== 0x04) continue;
      const n = data[i + 2]!;
      let byte = 0x12;
      if (n === 2 && this.coverOpen) byte |= 0x04;
      if (n === 2 && this.paperOut) byte |= 0x20;
      if (n === 4 && this.paperOut) byte |= 0x60;
      this.#pendingStatus.push(byte);
    }
    for (const wake of this.#statusWaiters.splice(0)) wake();
  }

  /** GET_PORT_STATUS requests answered. */
  portStatusRequests = 0;

  async getPortStatus(interfaceNumber: number): Promise<number> {
    if (this.unplugged) throw this.#gone();
    const supported = this.#options.portStatus ?? this.interfaces.some((i) => i.classCode === 7);
    if (!supported || !this.claimed.includes(interfaceNumber)) {
      throw new UsbError('io', 'LIBUSB_ERROR_PIPE');
    }
    this.portStatusRequests++;
    let status = 0x18; // selected, no error
    if (this.paperOut) status = (status | 0x20) & ~0x08;
    if (this.coverOpen) status &= ~0x08;
    return status;
  }

  async transferIn(endpoint: number, length: number, timeoutMs: number): Promise<Uint8Array> {
    if (this.unplugged) throw this.#gone();
    if (this.#endpoint(endpoint)?.direction !== 'in') {
      throw new UsbError('not_found', `no claimed IN endpoint 0x${endpoint.toString(16)}`);
    }
    if (this.#pendingStatus.length === 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.#statusWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (this.unplugged) throw this.#gone();
    if (this.#pendingStatus.length === 0) throw new UsbError('timeout', 'LIBUSB_ERROR_TIMEOUT');
    return Uint8Array.from(this.#pendingStatus.splice(0, length));
  }

  async close(): Promise<void> {
    this.claimed = [];
    this.kernelDriverAttached = true;
    this.opened = false;
  }
}

/** A backend listing fixed devices; `devices` can change between calls (plug, unplug). */
export class RecordingUsbBackend implements UsbBackend {
  readonly #watchers = new Set<() => void>();
  constructor(public devices: UsbDeviceLike[]) {}
  list(): UsbDeviceLike[] {
    return this.devices.filter((d) => !(d instanceof RecordingUsbDevice && d.unplugged));
  }
  watch(onChange: () => void): () => void {
    this.#watchers.add(onChange);
    return () => this.#watchers.delete(onChange);
  }
  /** Tells the watchers a device was attached or detached, as libusb's hotplug events do. */
  hotplug(): void {
    for (const watcher of this.#watchers) watcher();
  }
}
