import { readdir, readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A serial port of this computer. */
export interface SerialPortInfo {
  path: string;
  /** USB-serial adapters: the adapter's maker, when the OS tells. */
  manufacturer: string | null;
}

async function read(path: string): Promise<string | null> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return null;
  }
}

/**
 * Serial ports on Linux from sysfs: USB adapters (`ttyUSB*`, `ttyACM*`) and on-board UARTs
 * (`ttyS*`) whose UART type is not 0 (the kernel lists 4 to 32 `ttyS` that have no hardware).
 * `serialport`'s own list needs `udevadm`, which minimal systems lack.
 */
export async function listLinuxSerialPorts(
  sysClassTty = '/sys/class/tty',
): Promise<SerialPortInfo[]> {
  let names: string[];
  try {
    names = await readdir(sysClassTty);
  } catch {
    return [];
  }
  const ports: SerialPortInfo[] = [];
  for (const name of names.sort()) {
    const dir = join(sysClassTty, name);
    if (/^tty(USB|ACM)\d+$/.test(name)) {
      // The USB device one or two levels above the port's device names the adapter's maker.
      const device = await realpath(join(dir, 'device')).catch(() => null);
      const manufacturer = device
        ? ((await read(join(dirname(device), 'manufacturer'))) ??
          (await read(join(dirname(dirname(device)), 'manufacturer'))))
        : null;
      ports.push({ path: `/dev/${name}`, manufacturer });
    } else if (/^ttyS\d+$/.test(name)) {
      const type = await read(join(dir, 'type'));
      if (type !== null && type !== '0') ports.push({ path: `/dev/${name}`, manufacturer: null });
    }
  }
  return ports;
}

/** Serial ports of this computer: sysfs on Linux, `serialport`'s list on macOS and Windows. */
export async function listSerialPorts(platform = process.platform): Promise<SerialPortInfo[]> {
  if (platform === 'linux') return listLinuxSerialPorts();
  const { SerialPort } = await import('serialport');
  const ports = await SerialPort.list();
  return ports
    .filter((p) => platform !== 'darwin' || p.path.startsWith('/dev/cu.'))
    .map((p) => ({ path: p.path, manufacturer: p.manufacturer ?? null }));
}
