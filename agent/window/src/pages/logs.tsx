import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadLogs } from '../api';
import { useLogs } from '../data';
import { formatTime } from '../i18n';
import { Button, FormError, LoadError, Loading, PageTitle } from '../ui';

/** What the desktop app's preload exposes (agent/electron/preload.ts); absent in a browser. */
const desktop = (
  window as unknown as { printwireDesktop?: { exportLogs(): Promise<string | null> } }
).printwireDesktop;

export function LogsPage() {
  const { t } = useTranslation();
  const logs = useLogs();
  const [exporting, setExporting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const exportZip = async () => {
    setExporting(true);
    setError(null);
    try {
      // In the desktop app the main process asks where to save (a native dialog).
      if (desktop) await desktop.exportLogs();
      else await downloadLogs();
    } catch (e) {
      setError(e);
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      <PageTitle>{t('logs.title')}</PageTitle>
      <p>{t('logs.lead')}</p>
      <div className="actions">
        <Button busy={exporting} busyLabel={t('logs.exporting')} onClick={() => void exportZip()}>
          {t('logs.export')}
        </Button>
        <Button variant="secondary" onClick={() => void logs.refetch()}>
          {t('logs.refresh')}
        </Button>
      </div>
      <FormError error={error} />
      {logs.isError && <LoadError error={logs.error} onRetry={() => void logs.refetch()} />}
      {logs.isPending ? (
        <Loading />
      ) : logs.data && logs.data.length === 0 ? (
        <p className="empty">{t('logs.empty')}</p>
      ) : (
        <ol className="log mono" aria-label={t('logs.lines')} tabIndex={0}>
          {/* Newest first: what support asks about is usually what just happened. */}
          {[...(logs.data ?? [])].reverse().map((line, i) => (
            <li key={i} className={`level-${line.level}`}>
              {line.time ? formatTime(line.time) : ''} {t(`logLevel.${line.level}`)} {line.message}
              {line.detail && <span className="hint"> {line.detail}</span>}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
