/**
 * Status in a word and an icon (never by colour alone, DESIGN.md): printers, devices and jobs.
 * The words come from the catalogs' `printers.status.*` and `jobs.state.*`; a job's errorCode
 * becomes a sentence that says why and what to try (`jobs.errors.*`).
 */
import { useTranslation } from 'react-i18next';
import type { PrinterStatus as Status } from '@printwire/shared/contracts/printer-status';
import { i18n } from '../../i18n';
import './status.css';

type Tone = 'ok' | 'warn' | 'bad' | 'neutral';

// Every status the contract names has its tone (the compiler says when one is missing).
const PRINTER_TONE: Record<string, Tone> = {
  online: 'ok',
  offline: 'bad',
  paper_out: 'warn',
  cover_open: 'warn',
  error: 'bad',
  unknown: 'neutral',
} satisfies Record<Status, Tone>;
const JOB_TONE: Record<string, Tone> = {
  queued: 'neutral',
  sending: 'warn',
  printed: 'ok',
  failed: 'bad',
  cancelled: 'neutral',
};

export const PRINTER_STATUSES = Object.keys(PRINTER_TONE);

/** The icon of a tone: a tick, an exclamation mark, a cross, a dot. */
function Icon({ tone }: { tone: Tone }) {
  const paths: Record<Tone, string> = {
    ok: 'M3 8.5l3 3 7-7',
    warn: 'M8 3v6M8 12v1',
    bad: 'M4 4l8 8M12 4l-8 8',
    neutral: 'M8 8h.01',
  };
  return (
    <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16">
      <path d={paths[tone]} fill="none" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

export function Badge({ tone, children }: { tone: Tone; children: string }) {
  return (
    <span className={`status status-${tone}`}>
      <Icon tone={tone} />
      {children}
    </span>
  );
}

export function printerStatusWord(status: string): string {
  return PRINTER_TONE[status] ? i18n.t(`printers.status.${status}`) : status;
}

export function PrinterStatus({ status }: { status: string }) {
  return <Badge tone={PRINTER_TONE[status] ?? 'neutral'}>{printerStatusWord(status)}</Badge>;
}

export function JobStateBadge({ state }: { state: string }) {
  const { t } = useTranslation();
  return <Badge tone={JOB_TONE[state] ?? 'neutral'}>{t(`jobs.state.${state}`)}</Badge>;
}

/** The job error codes with their own words; others get the general sentence and the code. */
export const JOB_ERROR_CODES = [
  'INVALID_JOB',
  'EXPIRED',
  'PRINTER_OFFLINE',
  'PRINTER_NOT_FOUND',
  'PAPER_OUT',
  'COVER_OPEN',
  'PRINTER_ERROR',
  'CONNECTION_REFUSED',
  'CONNECTION_LOST',
  'TIMEOUT',
  'UNSUPPORTED_JOB',
  'DOWNLOAD_FAILED',
  'DOWNLOAD_TIMEOUT',
  'DOWNLOAD_TOO_LARGE',
  'NO_BROWSER',
  'RENDER_FAILED',
  'INTERRUPTED',
  'CANCELLED_AT_AGENT',
] as const;

/** Why a job failed, in plain words, from its errorCode. */
export function errorWords(code: string | null | undefined): string {
  if (!code) return '';
  return (JOB_ERROR_CODES as readonly string[]).includes(code)
    ? i18n.t(`jobs.errors.${code}`)
    : i18n.t('jobs.errors.other', { code });
}
