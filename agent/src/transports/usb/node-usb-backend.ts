import { createRequire } from 'node:module';
import type { Device, InEndpoint, OutEndpoint } from 'usb';
import {
  UsbError,
  type UsbBackend,
  type UsbDeviceLike,
  type UsbEndpointInfo,
  type UsbFailure,
  type UsbInterfaceInfo,
} from './usb-device.js';

type UsbModule = typeof import('usb');
let loaded: UsbModule | null = null;

/**
 * The `usb` package (libusb), loaded on first use: an agent on a machine where the native
 * module cannot load still starts, and only its USB printers fail.
 */
function libusb(): UsbModule {
  loaded ??= createRequire(import.meta.url)('usb') as UsbModule;
  return loaded;
}

const TRANSFER_TYPES: UsbEndpointInfo['transfer'][] = [
  'control',
  'isochronous',
  'bulk',
  'interrupt',
];

/** libusb's error numbers as the failures the transport tells apart. */
function failureOf(error: unknown): UsbFailure {
  const { LibUSBException, usb } = libusb();
  const errno = error instanceof LibUSBException ? error.errno : undefined;
  switch (errno) {
    case usb.LIBUSB_ERROR_ACCESS:
      return 'access';
    case usb.LIBUSB_ERROR_NO_DEVICE:
      return 'no_device';
    case usb.LIBUSB_ERROR_BUSY:
      return 'busy';
    case usb.LIBUSB_ERROR_TIMEOUT:
      return 'timeout';
    case usb.LIBUSB_ERROR_NOT_FOUND:
      return 'not_found';
    default:
      return 'io';
  }
}

function wrap(error: unknown): UsbError {
  if (error instanceof UsbError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new UsbError(failureOf(error), message, { cause: error });
}

function stringDescriptor(device: Device, index: number): Promise<string | null> {
  if (!index) return Promise.resolve(null);
  return new Promise((resolve) =>
    device.getStringDescriptor(index, (error, value) => resolve(error ? null : (value ?? null))),
  );
}

/** A device of the `usb` package (libusb) behind `UsbDeviceLike`. */
class NodeUsbDevice implements UsbDeviceLike {
  readonly vendorId: number;
  readonly productId: number;
  readonly interfaces: UsbInterfaceInfo[];
  readonly #device: Device;
  #claimed: Array<{ number: number; reattach: boolean }> = [];
  #open = false;

  constructor(device: Device) {
    this.#device = device;
    this.vendorId = device.deviceDescriptor.idVendor;
    this.productId = device.deviceDescriptor.idProduct;
    let config;
    try {
      config = device.configDescriptor;
    } catch {
      // Windows cannot read the configuration of a device without a WinUSB/libusbK driver.
      config = undefined;
    }
    this.interfaces = (config?.interfaces ?? []).flatMap((alternates) => {
      const first = alternates[0];
      if (!first) return [];
      return [
        {
          number: first.bInterfaceNumber,
          classCode: first.bInterfaceClass,
          subclass: first.bInterfaceSubClass,
          protocol: first.bInterfaceProtocol,
          endpoints: first.endpoints.map((e) => ({
            address: e.bEndpointAddress,
            direction: e.bEndpointAddress & 0x80 ? ('in' as const) : ('out' as const),
            transfer: TRANSFER_TYPES[e.bmAttributes & 0x03]!,
          })),
        },
      ];
    });
  }

  async open(): Promise<void> {
    try {
      this.#device.open();
      this.#open = true;
    } catch (error) {
      throw wrap(error);
    }
  }

  async readStrings() {
    const d = this.#device.deviceDescriptor;
    return {
      serial: await stringDescriptor(this.#device, d.iSerialNumber),
      product: await stringDescriptor(this.#device, d.iProduct),
      manufacturer: await stringDescriptor(this.#device, d.iManufacturer),
    };
  }

  async claim(interfaceNumber: number): Promise<void> {
    try {
      const iface = this.#device.interface(interfaceNumber);
      let reattach = false;
      // Windows and macOS have no kernel driver to detach through libusb.
      if (process.platform === 'linux' && iface.isKernelDriverActive()) {
        iface.detachKernelDriver();
        reattach = true;
      }
      iface.claim();
      this.#claimed.push({ number: interfaceNumber, reattach });
    } catch (error) {
      throw wrap(error);
    }
  }

  #endpoint<T extends InEndpoint | OutEndpoint>(address: number): T {
    for (const claimed of this.#claimed) {
      const endpoint = this.#device.interface(claimed.number).endpoint(address);
      if (endpoint) return endpoint as T;
    }
    throw new UsbError(
      'not_found',
      `endpoint 0x${address.toString(16)} is not on a claimed interface`,
    );
  }

  transferOut(endpoint: number, data: Uint8Array, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      try {
        const out = this.#endpoint<OutEndpoint>(endpoint);
        out.timeout = timeoutMs;
        out.transfer(Buffer.from(data.buffer, data.byteOffset, data.byteLength), (error) =>
          error ? reject(wrap(error)) : resolve(),
        );
      } catch (error) {
        reject(wrap(error));
      }
    });
  }

  getPortStatus(interfaceNumber: number, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      try {
        this.#device.timeout = timeoutMs;
        // bmRequestType 0xA1: class request to the interface, device to host.
        this.#device.controlTransfer(0xa1, 0x01, 0, interfaceNumber, 1, (error, data) => {
          if (error) reject(wrap(error));
          else if (!data || !(data instanceof Buffer) || data.length < 1) {
            reject(new UsbError('io', 'GET_PORT_STATUS returned no byte'));
          } else resolve(data[0]!);
        });
      } catch (error) {
        reject(wrap(error));
      }
    });
  }

  transferIn(endpoint: number, length: number, timeoutMs: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      try {
        const input = this.#endpoint<InEndpoint>(endpoint);
        input.timeout = timeoutMs;
        input.transfer(length, (error, data) =>
          error ? reject(wrap(error)) : resolve(data ?? new Uint8Array(0)),
        );
      } catch (error) {
        reject(wrap(error));
      }
    });
  }

  async close(): Promise<void> {
    for (const claimed of this.#claimed.splice(0)) {
      const iface = this.#device.interface(claimed.number);
      await new Promise<void>((resolve) => iface.release(true, () => resolve()));
      if (claimed.reattach) {
        try {
          iface.attachKernelDriver();
        } catch {
          // gone or already attached: nothing to give back
        }
      }
    }
    if (this.#open) {
      this.#open = false;
      try {
        this.#device.close();
      } catch {
        // unplugged: already closed
      }
    }
  }
}

/** The USB devices attached now, through libusb (the `usb` package). */
export const nodeUsbBackend: UsbBackend = {
  list: () => {
    let usb: UsbModule;
    try {
      usb = libusb();
    } catch (error) {
      throw new UsbError('io', `libusb cannot be loaded: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return usb.getDeviceList().map((device) => new NodeUsbDevice(device));
  },
  watch: (onChange) => {
    const { usb } = libusb();
    const listener = () => onChange();
    usb.on('attach', listener);
    usb.on('detach', listener);
    // Hotplug events must not keep the agent's process alive on their own.
    usb.unrefHotplugEvents();
    return () => {
      usb.removeListener('attach', listener);
      usb.removeListener('detach', listener);
    };
  },
};
