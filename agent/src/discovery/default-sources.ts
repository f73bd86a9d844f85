import { platformSpooler } from '../transports/system/system-transport.js';
import type { DiscoverySources } from './discover.js';
import { listSerialPorts } from './serial-ports.js';

/**
 * The real sources of this computer: libusb (loaded only here, so that a machine whose libusb
 * cannot load still lists serial ports and queues), the serial ports and the OS spooler.
 */
export async function defaultDiscoverySources(): Promise<DiscoverySources> {
  const sources: DiscoverySources = {
    serialPorts: () => listSerialPorts(),
    spooler: platformSpooler(),
  };
  try {
    sources.usb = (await import('../transports/usb/node-usb-backend.js')).nodeUsbBackend;
  } catch {
    // no libusb binding for this platform: USB printers are not listed
  }
  return sources;
}
