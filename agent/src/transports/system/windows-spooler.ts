import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterStatusReport } from '../transport.js';
import { runCommand, type CommandRunner } from './run-command.js';
import type { Spooler, SpoolerQueue, SpoolJobState, SubmitOptions } from './spooler.js';

/*
 * The Windows spooler through PowerShell (present on every Windows since 7): Get-Printer and
 * Get-PrintJob for state, a small C# shim over winspool.drv's WritePrinter for raw bytes, and the
 * shell's "PrintTo" verb of the registered application for documents (PDF, images). Values reach
 * the scripts in environment variables, never spliced into the script text.
 *
 * Only exercised on Windows; the tests of this repository run on Linux and cover CUPS.
 */

const RAW_SCRIPT = `
$ErrorActionPreference = 'Stop'
Add-Type -TypeDefinition @"
using System;
using System.ComponentModel;
using System.Runtime.InteropServices;
public static class PrintwireRaw {
  [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)]
  public class DOCINFO { public string pDocName; public string pOutputFile; public string pDataType; }
  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern bool OpenPrinter(string name, out IntPtr handle, IntPtr defaults);
  [DllImport("winspool.drv", SetLastError = true)] static extern bool ClosePrinter(IntPtr handle);
  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)]
  static extern int StartDocPrinter(IntPtr handle, int level, [In] DOCINFO info);
  [DllImport("winspool.drv", SetLastError = true)] static extern bool EndDocPrinter(IntPtr handle);
  [DllImport("winspool.drv", SetLastError = true)] static extern bool StartPagePrinter(IntPtr handle);
  [DllImport("winspool.drv", SetLastError = true)] static extern bool EndPagePrinter(IntPtr handle);
  [DllImport("winspool.drv", SetLastError = true)]
  static extern bool WritePrinter(IntPtr handle, byte[] data, int count, out int written);
  public static int Send(string printer, string title, byte[] data) {
    IntPtr h;
    if (!OpenPrinter(printer, out h, IntPtr.Zero)) throw new Win32Exception();
    try {
      int job = StartDocPrinter(h, 1, new DOCINFO { pDocName = title, pDataType = "RAW" });
      if (job == 0) throw new Win32Exception();
      StartPagePrinter(h);
      int written;
      bool ok = WritePrinter(h, data, data.Length, out written);
      EndPagePrinter(h);
      EndDocPrinter(h);
      if (!ok || written != data.Length) throw new Win32Exception();
      return job;
    } finally { ClosePrinter(h); }
  }
}
"@
$data = [System.IO.File]::ReadAllBytes($env:PW_FILE)
$all = New-Object System.IO.MemoryStream
for ($i = 0; $i -lt [int]$env:PW_COPIES; $i++) { $all.Write($data, 0, $data.Length) }
[PrintwireRaw]::Send($env:PW_QUEUE, $env:PW_TITLE, $all.ToArray())
`;

// The PrintTo verb has no copies argument: documents print once on Windows (see docs/printers.md).
const DOCUMENT_SCRIPT = `
$ErrorActionPreference = 'Stop'
$p = Start-Process -FilePath $env:PW_FILE -Verb PrintTo -ArgumentList ('"' + $env:PW_QUEUE + '"') -WindowStyle Hidden -PassThru
$name = [System.IO.Path]::GetFileName($env:PW_FILE)
for ($i = 0; $i -lt 120; $i++) {
  $job = Get-PrintJob -PrinterName $env:PW_QUEUE | Where-Object { $_.DocumentName -like "*$name*" } | Select-Object -Last 1
  if ($job) { $job.Id; exit 0 }
  if ($p.HasExited -and $i -gt 20) { break }
  Start-Sleep -Milliseconds 250
}
throw "no application printed $name (is a PDF reader registered for printing?)"
`;

const STATUS_SCRIPT = `(Get-Printer -Name $env:PW_QUEUE -ErrorAction Stop).PrinterStatus.ToString()`;
const JOB_SCRIPT = `
$job = Get-PrintJob -PrinterName $env:PW_QUEUE -ID ([int]$env:PW_JOB) -ErrorAction SilentlyContinue
if ($job) { $job.JobStatus.ToString() } else { 'Gone' }
`;
const CANCEL_SCRIPT = `Remove-PrintJob -PrinterName $env:PW_QUEUE -ID ([int]$env:PW_JOB) -ErrorAction SilentlyContinue`;
const LIST_SCRIPT = `ConvertTo-Json -Compress -InputObject @(Get-CimInstance Win32_Printer | Select-Object Name, Default, PortName, Comment)`;

/** Get-Printer's PrinterStatus as the agent's status. Pure. */
export function windowsPrinterStatus(status: string): PrinterStatusReport {
  const s = status.trim();
  if (/PaperOut/i.test(s)) return { status: 'paper_out', detail: 'paper out' };
  if (/DoorOpen/i.test(s)) return { status: 'cover_open', detail: 'cover open' };
  if (/Offline|NotAvailable|Paused|PowerSave/i.test(s)) return { status: 'offline', detail: s };
  if (/Error|Jam|Problem|UserIntervention|NoToner|OutOfMemory/i.test(s)) {
    return { status: 'error', detail: s };
  }
  return { status: 'online', detail: null };
}

/** Get-PrintJob's JobStatus flags as a job state; a job no longer listed has printed. Pure. */
export function windowsJobState(status: string): SpoolJobState {
  const s = status.trim();
  if (s === 'Gone' || /Printed|Complete/i.test(s)) return 'completed';
  if (/Delet/i.test(s)) return 'canceled';
  if (/Error|Offline|PaperOut|UserIntervention|Blocked/i.test(s)) return 'stopped';
  if (/Paused/i.test(s)) return 'held';
  if (/Printing|Spooling/i.test(s)) return 'processing';
  return 'pending';
}

/** The file name extension that selects the application printing a document. Pure. */
export function documentExtension(bytes: Uint8Array): 'pdf' | 'png' | 'jpg' | 'ps' {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  if (bytes[0] === 0x25 && bytes[1] === 0x21) return 'ps';
  return 'pdf';
}

/** The Windows print spooler through PowerShell. */
export class WindowsSpooler implements Spooler {
  readonly #run: CommandRunner;

  constructor(run: CommandRunner = runCommand) {
    this.#run = run;
  }

  async #ps(script: string, env: Record<string, string>, timeoutMs?: number) {
    const args = [
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'Bypass',
      '-Command',
      script,
    ];
    try {
      return await this.#run('powershell.exe', args, { env, ...(timeoutMs ? { timeoutMs } : {}) });
    } catch (error) {
      throw new PrintwireError(
        'PRINTER_OFFLINE',
        `PowerShell cannot be started: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  async listQueues(): Promise<SpoolerQueue[]> {
    const result = await this.#ps(LIST_SCRIPT, {});
    if (result.code !== 0 || result.stdout.trim() === '') return [];
    type Row = { Name: string; Default: boolean; PortName: string | null; Comment: string | null };
    const parsed = JSON.parse(result.stdout) as Row | Row[];
    // Windows PowerShell 5.1 writes a one-element array as the element itself.
    const rows = Array.isArray(parsed) ? parsed : [parsed];
    return rows.map((r) => ({
      name: r.Name,
      description: r.Comment || null,
      isDefault: r.Default === true,
      device: r.PortName || null,
    }));
  }

  async queueStatus(queue: string): Promise<PrinterStatusReport | null> {
    const result = await this.#ps(STATUS_SCRIPT, { PW_QUEUE: queue });
    return result.code === 0 ? windowsPrinterStatus(result.stdout) : null;
  }

  async submit(queue: string, bytes: Uint8Array, options: SubmitOptions): Promise<string> {
    const extension = options.format === 'raw' ? 'bin' : documentExtension(bytes);
    const file = join(tmpdir(), `printwire-${randomBytes(6).toString('hex')}.${extension}`);
    await writeFile(file, bytes);
    try {
      const script = options.format === 'raw' ? RAW_SCRIPT : DOCUMENT_SCRIPT;
      const env = {
        PW_QUEUE: queue,
        PW_TITLE: options.title.slice(0, 200),
        PW_FILE: file,
        PW_COPIES: String(options.copies ?? 1),
      };
      const result = await this.#ps(script, env, 60_000);
      const jobId = result.stdout.trim().split(/\s+/).pop() ?? '';
      if (result.code !== 0 || !/^\d+$/.test(jobId)) {
        throw new PrintwireError(
          'PRINTER_ERROR',
          `the Windows spooler refused the job for ${queue}: ${result.stderr.trim()}`,
        );
      }
      return jobId;
    } finally {
      // The spooler has its own copy once the job id exists.
      await rm(file, { force: true }).catch(() => undefined);
    }
  }

  async jobState(queue: string, jobId: string): Promise<SpoolJobState> {
    const result = await this.#ps(JOB_SCRIPT, { PW_QUEUE: queue, PW_JOB: jobId });
    return result.code === 0 ? windowsJobState(result.stdout) : 'unknown';
  }

  async cancel(queue: string, jobId: string): Promise<void> {
    await this.#ps(CANCEL_SCRIPT, { PW_QUEUE: queue, PW_JOB: jobId });
  }
}
