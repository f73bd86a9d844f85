/**
 * The sandbox's virtual printers, created with every organization and seen by test keys only.
 * Aliases are stable so integrators can target them: `{ printer: { alias: 'paper-out' } }`.
 */
import type { SandboxPrinterSpec } from '../storage/organizations.js';

export const SANDBOX_PRINTERS: readonly SandboxPrinterSpec[] = [
  {
    agentPrinterId: 'sandbox-receipt-80',
    name: 'Sandbox receipt printer 80 mm',
    alias: 'receipt-80',
    kind: 'receipt',
    paper: '80mm',
    profile: 'generic-80mm',
    capabilities: ['escpos', 'raw', 'text', 'cut', 'drawer', 'preview'],
    status: 'online',
    isDefault: true,
  },
  {
    agentPrinterId: 'sandbox-receipt-58',
    name: 'Sandbox receipt printer 58 mm',
    alias: 'receipt-58',
    kind: 'receipt',
    paper: '58mm',
    profile: 'generic-58mm',
    capabilities: ['escpos', 'raw', 'text', 'cut', 'preview'],
    status: 'online',
    isDefault: false,
  },
  {
    agentPrinterId: 'sandbox-label',
    name: 'Sandbox label printer',
    alias: 'label',
    kind: 'label',
    paper: null,
    profile: null,
    capabilities: ['zpl', 'epl'],
    status: 'online',
    isDefault: false,
  },
  {
    agentPrinterId: 'sandbox-paper-out',
    name: 'Sandbox printer without paper',
    alias: 'paper-out',
    kind: 'receipt',
    paper: '80mm',
    profile: 'generic-80mm',
    capabilities: ['escpos', 'raw', 'text', 'cut'],
    status: 'paper_out',
    isDefault: false,
  },
];
