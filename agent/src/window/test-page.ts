import type { RenderTarget } from '../render/render-job.js';
import { renderJob } from '../render/render-job.js';

/**
 * The window's test page in the printer's language: its name, paper, codepage and a line of
 * accented characters, so a person sees at once whether the codepage is right.
 */
export function testPageBytes(
  printer: { name: string; paper: string | null; codepage: string | null },
  target: RenderTarget,
  agentVersion: string,
  at: Date,
): Uint8Array {
  const lines = [
    'Printwire test page',
    `Printer: ${printer.name}`,
    `Paper: ${printer.paper ?? '-'}`,
    `Codepage: ${printer.codepage ?? 'default'}`,
    `Agent ${agentVersion}, ${at.toISOString()}`,
    'àéèêç ôù ñ ü € - Kreyòl: enprimant',
  ];
  const job = (type: 'text' | 'zpl' | 'epl', content: string) => ({
    id: 'test-page',
    type,
    encoding: 'utf8' as const,
    content,
    options: {},
  });
  if (target.language === 'zpl') {
    const body = lines
      .slice(0, 5)
      .map((l, i) => `^FO30,${30 + i * 40}^A0N,30,30^FD${l.replace(/[\^~]/g, ' ')}^FS`);
    return renderJob(job('zpl', ['^XA', ...body, '^XZ'].join('\n')), target);
  }
  if (target.language === 'epl') {
    const body = lines
      .slice(0, 5)
      .map((l, i) => `A30,${30 + i * 40},0,3,1,1,N,"${l.replace(/"/g, "'")}"`);
    return renderJob(job('epl', ['N', ...body, 'P1', ''].join('\n')), target);
  }
  return renderJob(job('text', lines.join('\n') + '\n'), target);
}
