import type { TransportFactory } from '../transport.js';
import { nodeUsbBackend } from './node-usb-backend.js';
import { usbTransportFactory } from './usb-transport.js';

/** The factory the registry maps `usb` to: libusb through the `usb` package. */
export const createUsbTransport: TransportFactory = usbTransportFactory(nodeUsbBackend);
