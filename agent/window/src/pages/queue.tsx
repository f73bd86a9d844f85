import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { keys, useAction, useAgentState, useJobs, usePrinters } from '../data';
import { formatRelative, formatTime } from '../i18n';
import { StatusBadge, Button, FormError, LoadError, Loading, PageTitle, type Tone } from '../ui';
import type { WindowJob } from '../../../src/window/window-types';

const STATE_TONE: Record<WindowJob['state'], Tone> = {
  queued: 'neutral',
  printing: 'neutral',
  printed: 'ok',
  failed: 'bad',
  cancelled: 'neutral',
};

export function QueuePage() {
  const { t } = useTranslation();
  const jobs = useJobs();
  const state = useAgentState();
  const printers = usePrinters();
  const names = new Map(printers.data?.data.map((p) => [p.agentPrinterId, p.alias ?? p.name]));
  const waiting = jobs.data?.filter((j) => j.state === 'queued').length ?? 0;
  return (
    <>
      <PageTitle>{t('queue.title')}</PageTitle>
      {state.data?.paused && (
        <div className="notice warn">
          <p>{t('queue.paused', { count: waiting })}</p>
        </div>
      )}
      {jobs.isError && <LoadError error={jobs.error} onRetry={() => void jobs.refetch()} />}
      {jobs.isPending ? (
        <Loading />
      ) : jobs.data && jobs.data.length === 0 ? (
        <p className="empty">{t('queue.empty')}</p>
      ) : (
        jobs.data && (
          <table className="cards">
            <thead>
              <tr>
                <th scope="col">{t('queue.job')}</th>
                <th scope="col">{t('queue.printer')}</th>
                <th scope="col">{t('queue.state')}</th>
                <th scope="col">{t('queue.received')}</th>
                <th scope="col">{t('queue.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.map((job) => (
                <JobRow
                  key={job.id}
                  job={job}
                  printer={names.get(job.agentPrinterId) ?? job.agentPrinterId}
                />
              ))}
            </tbody>
          </table>
        )
      )}
    </>
  );
}

function JobRow({ job, printer }: { job: WindowJob; printer: string }) {
  const { t } = useTranslation();
  const cancel = useAction(
    () => api.post(`jobs/${encodeURIComponent(job.id)}/cancel`),
    [keys.jobs],
  );
  const retry = useAction(() => api.post(`jobs/${encodeURIComponent(job.id)}/retry`), [keys.jobs]);
  const waitingRetry = job.state === 'queued' && job.attempt > 1;
  return (
    <tr>
      <td data-label={t('queue.job')}>
        <span className="mono">{job.id}</span>
        <p className="hint">
          {t(`jobType.${job.type}`, { defaultValue: job.type })} ·{' '}
          {t(job.source === 'local' ? 'queue.fromPage' : 'queue.fromCloud')}
        </p>
      </td>
      <td data-label={t('queue.printer')}>{printer}</td>
      <td data-label={t('queue.state')}>
        <StatusBadge tone={STATE_TONE[job.state]}>{t(`jobState.${job.state}`)}</StatusBadge>
        {job.errorCode && (
          <p className="hint">
            {t(`errors.codes.${job.errorCode}`, {
              defaultValue: job.errorMessage ?? job.errorCode,
            })}
          </p>
        )}
        {waitingRetry && job.nextAttemptAt !== null && (
          <p className="hint">
            {t('queue.nextAttempt', {
              attempt: job.attempt,
              max: job.maxAttempts,
              when: formatRelative(job.nextAttemptAt),
            })}
          </p>
        )}
      </td>
      <td data-label={t('queue.received')}>
        {formatRelative(job.receivedAt)}
        <p className="hint">{formatTime(job.receivedAt)}</p>
      </td>
      <td data-label={job.state === 'queued' ? t('queue.actions') : undefined}>
        {job.state === 'queued' && (
          <div className="actions">
            {waitingRetry && (
              <Button
                variant="secondary"
                busy={retry.isPending}
                onClick={() => retry.mutate()}
                aria-label={t('queue.retryNamed', { id: job.id })}
              >
                {t('queue.retry')}
              </Button>
            )}
            <Button
              variant="secondary"
              busy={cancel.isPending}
              onClick={() => cancel.mutate()}
              aria-label={t('queue.cancelNamed', { id: job.id })}
            >
              {t('queue.cancel')}
            </Button>
          </div>
        )}
        <FormError error={cancel.error ?? retry.error} />
      </td>
    </tr>
  );
}
