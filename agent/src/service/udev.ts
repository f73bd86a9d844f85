import { KNOWN_PRINTER_VENDORS, USB_PRINTER_CLASS } from '../transports/usb/printer-interfaces.js';

const hex4 = (n: number) => n.toString(16).padStart(4, '0');
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/**
 * The udev rules of the Debian package (/lib/udev/rules.d/60-printwire-agent.rules): group `lp`
 * may read and write the USB printers the agent drives, which are the devices
 * `findPrinterInterface` accepts: any device with a printer-class interface (07), and devices of
 * the known ESC/POS vendors with a vendor-specific interface (ff), which libusb opens through
 * /dev/bus/usb. The kernel's printer nodes (/dev/usb/lp*) go to `lp` too. `ID_USB_INTERFACES`
 * is set by the usb_id builtin in 50-udev-default.rules, which runs before this file.
 */
export function udevRules(): string {
  const vendors = Object.entries(KNOWN_PRINTER_VENDORS)
    .map(([id, v]) => [Number(id), v.name] as const)
    .sort((a, b) => a[0] - b[0])
    .map(
      ([id, name]) =>
        `# ${name}\nSUBSYSTEM=="usb", ENV{DEVTYPE}=="usb_device", ATTR{idVendor}=="${hex4(id)}", ENV{ID_USB_INTERFACES}=="*:ff????:*", MODE="0664", GROUP="lp"`,
    );
  return `# Printwire agent: the printers it drives belong to group lp (the user printwire is in it).
# Generated from agent/src/transports/usb/printer-interfaces.ts (KNOWN_PRINTER_VENDORS).
ACTION=="remove", GOTO="printwire_end"

# The USB printer class, whoever made the printer.
SUBSYSTEM=="usb", ENV{DEVTYPE}=="usb_device", ENV{ID_USB_INTERFACES}=="*:${hex2(USB_PRINTER_CLASS)}????:*", MODE="0664", GROUP="lp"
SUBSYSTEM=="usbmisc", KERNEL=="lp[0-9]*", MODE="0660", GROUP="lp"

# ESC/POS and label printers that present a vendor-specific interface.
${vendors.join('\n')}

LABEL="printwire_end"
`;
}
