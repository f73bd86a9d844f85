/**
 * Status in a word and an icon (never by colour alone, DESIGN.md): printers, devices and jobs.
 * The words come from the catalogs' `printers.status.*` and `jobs.state.*`; a job's errorCode
 * becomes a sentence that says why and what to try (`jobs.errors.*`).
 */
import { useTranslation } from 'react-i18next';
import type { PrinterStatus as Status } from '@printwire/shared/contracts/printer-status';
import { JOB_ERROR_CODES } from '@printwire/shared/errors/index';
import { StatusBadge, type Tone } from '@printwire/ui';
import { i18n } from '../../i18n';

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

export function printerStatusWord(status: string): string {
  return PRINTER_TONE[status] ? i18n.t(`printers.status.${status}`) : status;
}

export function PrinterStatus({ status }: { status: string }) {
  return (
    <StatusBadge tone={PRINTER_TONE[status] ?? 'neutral'}>{printerStatusWord(status)}</StatusBadge>
  );
}

export function JobStateBadge({ state }: { state: string }) {
  const { t } = useTranslation();
  return <StatusBadge tone={JOB_TONE[state] ?? 'neutral'}>{t(`jobs.state.${state}`)}</StatusBadge>;
}

/**
 * Why a job failed, in plain words, from its errorCode: each code of the error catalog's
 * JOB_ERROR_CODES has its own (`jobs.errors.*`, test/error-catalog.test.ts checks the three
 * catalogs); any other gets the general sentence and the code.
 */
export function errorWords(code: string | null | undefined): string {
  if (!code) return '';
  return (JOB_ERROR_CODES as readonly string[]).includes(code)
    ? i18n.t(`jobs.errors.${code}`)
    : i18n.t('jobs.errors.other', { code });
}
