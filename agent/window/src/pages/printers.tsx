import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { keys, useAction, usePrinters } from '../data';
import { StatusBadge, Button, FormError, LoadError, Loading, PageTitle, type Tone } from '../ui';
import type { PrinterStatusWord, WindowPrinter } from '../../../src/window/window-types';

export const STATUS_TONE: Record<PrinterStatusWord, Tone> = {
  online: 'ok',
  offline: 'bad',
  paper_out: 'warn',
  cover_open: 'warn',
  error: 'bad',
  unknown: 'neutral',
};

export function PrintersPage() {
  const { t } = useTranslation();
  const printers = usePrinters();
  const show = useAction(
    (id: string) => api.post(`printers/${encodeURIComponent(id)}/show`),
    [keys.printers],
  );
  return (
    <>
      <PageTitle>{t('printers.title')}</PageTitle>
      {printers.isError && (
        <LoadError error={printers.error} onRetry={() => void printers.refetch()} />
      )}
      {printers.isPending ? (
        <Loading />
      ) : printers.data && printers.data.data.length === 0 ? (
        <p className="empty">{t('printers.empty')}</p>
      ) : (
        printers.data && (
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">{t('printers.name')}</th>
                <th scope="col">{t('printers.status')}</th>
                <th scope="col">{t('printers.paper')}</th>
                <th scope="col">{t('printers.codepage')}</th>
                <th scope="col">{t('printers.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {printers.data.data.map((p) => (
                <PrinterRow key={p.agentPrinterId} printer={p} />
              ))}
            </tbody>
          </table>
        )
      )}
      {printers.data && printers.data.hidden.length > 0 && (
        <>
          <h2>{t('printers.hiddenTitle')}</h2>
          <p className="hint">{t('printers.hiddenHint')}</p>
          <FormError error={show.error} />
          <ul>
            {printers.data.hidden.map((p) => (
              <li key={p.agentPrinterId}>
                {p.name} <span className="hint mono">{p.uri}</span>{' '}
                <Button
                  variant="secondary"
                  busy={show.isPending && show.variables === p.agentPrinterId}
                  onClick={() => show.mutate(p.agentPrinterId)}
                  aria-label={t('printers.showNamed', { name: p.name })}
                >
                  {t('printers.show')}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function PrinterRow({ printer: p }: { printer: WindowPrinter }) {
  const { t } = useTranslation();
  const name = p.alias ?? p.name;
  const test = useAction(
    () => api.post(`printers/${encodeURIComponent(p.agentPrinterId)}/test`),
    [keys.printers],
  );
  const hide = useAction(
    () => api.post(`printers/${encodeURIComponent(p.agentPrinterId)}/hide`),
    [keys.printers],
  );
  return (
    <tr>
      <td data-label={t('printers.name')}>
        <strong>{name}</strong>
        <p className="hint mono">{p.uri}</p>
      </td>
      <td data-label={t('printers.status')}>
        <StatusBadge tone={STATUS_TONE[p.status]}>{t(`printerStatus.${p.status}`)}</StatusBadge>
        {p.status !== 'online' && p.status !== 'unknown' && (
          <p className="hint">{t(`printerAdvice.${p.status}`)}</p>
        )}
      </td>
      <td data-label={t('printers.paper')}>{p.paper ?? t('printers.none')}</td>
      <td data-label={t('printers.codepage')}>{p.codepage ?? t('printers.defaultCodepage')}</td>
      <td data-label={t('printers.actions')}>
        <div className="actions">
          <Button
            variant="secondary"
            busy={test.isPending}
            busyLabel={t('printers.testing')}
            onClick={() => test.mutate()}
            aria-label={t('printers.testNamed', { name })}
          >
            {t('printers.test')}
          </Button>
          {!p.configured && (
            <Button
              variant="secondary"
              busy={hide.isPending}
              onClick={() => hide.mutate()}
              aria-label={t('printers.hideNamed', { name })}
            >
              {t('printers.hide')}
            </Button>
          )}
        </div>
        {test.isSuccess && (
          <p className="hint" role="status">
            {t('printers.testSent')}
          </p>
        )}
        <FormError error={test.error ?? hide.error} />
      </td>
    </tr>
  );
}
