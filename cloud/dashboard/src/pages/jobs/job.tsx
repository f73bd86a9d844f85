/**
 * One job (`/o/org_…/jobs/job_…`): its state and why, its timeline (each change with its time and
 * error code in words), its metadata, what it was asked to print while that is retained, the
 * sandbox's picture, and Cancel / Reprint with their real outcomes (a 409 said in words).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useCan } from '../../data';
import { useMode, type Mode } from '../../frame';
import { formatDate, formatRelative, i18n } from '../../i18n';
import { Button, Dialog, LastData, LoadError, Loading, PageTitle } from '../../ui';
import { useOrgId } from '../organization';
import { useGroups } from '../groups/data';
import { usePrinters, type Printer } from '../printers/data';
import { JobStateBadge, errorWords } from '../printers/status';
import { ContentView, Preview } from './content';
import {
  FINISHED,
  useJob,
  useJobAction,
  useJobContent,
  useJobLabels,
  useJobPreview,
  type Job,
} from './data';
import { memberMoves } from './moves';
import { LabelPictures } from './labels';

function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  return (
    <>
      <time dateTime={iso}>{formatDate(iso, true)}</time>{' '}
      <span className="hint">({formatRelative(iso)})</span>
    </>
  );
}

export function JobPage() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const jobId = useParams().jobId ?? '';
  const [mode] = useMode();
  const job = useJob(orgId, mode, jobId);
  if (job.isError && !job.data) {
    if (job.error instanceof ApiError && job.error.status === 404) {
      return (
        <section>
          <PageTitle lead={t('jobs.job.notFound')}>{jobId}</PageTitle>
          <Link to={`/o/${orgId}/jobs${mode === 'test' ? '?mode=test' : ''}`}>
            {t('jobs.job.back')}
          </Link>
        </section>
      );
    }
    return <LoadError error={job.error} onRetry={() => void job.refetch()} />;
  }
  if (!job.data) return <Loading />;
  return (
    <LastData query={job}>
      <JobView orgId={orgId} mode={mode} job={job.data} />
    </LastData>
  );
}

function JobView({ orgId, mode, job }: { orgId: string; mode: Mode; job: Job }) {
  const { t } = useTranslation();
  const printers = usePrinters(orgId, mode);
  const printerList = printers.data?.data ?? [];
  const byId = new Map(printerList.map((p) => [p.id, p]));
  const printer = job.printerId ? byId.get(job.printerId) : undefined;
  const groups = useGroups(orgId);
  const group = groups.data?.data.find((g) => g.id === job.printerGroupId);
  const named = (id: string) => {
    const p: Printer | undefined = byId.get(id);
    return p ? (p.alias ?? p.name) : id;
  };
  const moves = memberMoves(job);
  const keep = mode === 'test' ? '?mode=test' : '';
  const content = useJobContent(orgId, mode, job);
  const isLabelCode = job.type === 'zpl' || job.type === 'epl';
  // A PDF, picture or HTML page for a label printer previews as the labels the printer gets.
  const isLabel =
    isLabelCode || (printer?.kind === 'label' && ['pdf', 'image', 'html'].includes(job.type));
  const preview = useJobPreview(orgId, mode, isLabel ? undefined : job);
  const labels = useJobLabels(orgId, mode, isLabel ? job : undefined);
  const metadata = Object.entries(job.metadata);
  const back = `/o/${orgId}/jobs${mode === 'test' ? '?mode=test' : ''}`;
  return (
    <section className="job-page">
      <p>
        <Link to={back}>{t('jobs.job.back')}</Link>
      </p>
      <PageTitle>{t('jobs.job.title', { id: job.id })}</PageTitle>
      <div className="job-state">
        <JobStateBadge state={job.state} />
        {job.errorCode && (
          <p className="why-block" role={job.state === 'failed' ? 'alert' : undefined}>
            {errorWords(job.errorCode)}
            {job.errorMessage && <span className="hint"> ({job.errorMessage})</span>}
          </p>
        )}
      </div>
      {moves.from.length > 0 && job.printerId && (
        <p className="moved" role="status">
          {t(job.state === 'printed' ? 'jobs.job.movedPrinted' : 'jobs.job.movedNow', {
            printer: named(job.printerId),
            from: new Intl.ListFormat(i18n.language).format(moves.from.map(named)),
          })}
        </p>
      )}
      <Actions orgId={orgId} mode={mode} job={job} />

      <h2>{t('jobs.job.details')}</h2>
      <dl className="facts">
        <dt>{t('jobs.columns.type')}</dt>
        <dd>{job.type}</dd>
        {job.printerGroupId && (
          <>
            <dt>{t('jobs.job.group')}</dt>
            <dd dir="auto">
              {group ? (
                <Link to={`/o/${orgId}/printer-groups/${group.id}${keep}`}>{group.name}</Link>
              ) : (
                job.printerGroupId
              )}
            </dd>
          </>
        )}
        <dt>
          {job.state === 'printed'
            ? t('jobs.job.printedOn')
            : job.printerGroupId && !FINISHED.includes(job.state)
              ? t('jobs.job.memberNow')
              : t('jobs.columns.printer')}
        </dt>
        <dd dir="auto">
          {printer ? (
            <Link to={`/o/${orgId}/printers${keep}`}>{printer.alias ?? printer.name}</Link>
          ) : job.printerId ? (
            job.printerId
          ) : job.printerGroupId ? (
            <span className="hint">{t('jobs.job.noMemberYet')}</span>
          ) : (
            '—'
          )}
        </dd>
        {moves.from.length > 0 && (
          <>
            <dt>{t('jobs.job.movedFrom')}</dt>
            <dd>
              <ol className="moved-from">
                {moves.from.map((id, i) => (
                  <li key={`${id}-${i}`} dir="auto">
                    {named(id)}
                  </li>
                ))}
              </ol>
            </dd>
          </>
        )}
        <dt>{t('jobs.job.device')}</dt>
        <dd>{printer?.device?.name ?? job.deviceId ?? '—'}</dd>
        <dt>{t('jobs.job.source')}</dt>
        <dd>{t(`jobs.job.sources.${job.source}`)}</dd>
        <dt>{t('jobs.job.attempt')}</dt>
        <dd>{job.attempt}</dd>
        <dt>{t('jobs.columns.created')}</dt>
        <dd>
          <When iso={job.createdAt} />
        </dd>
        <dt>{t('jobs.job.printedAt')}</dt>
        <dd>
          <When iso={job.printedAt} />
        </dd>
        <dt>{t('jobs.job.expiresAt')}</dt>
        <dd>
          <When iso={job.expiresAt} />
        </dd>
        {job.idempotencyKey && (
          <>
            <dt>{t('jobs.job.idempotencyKey')}</dt>
            <dd>
              <code>{job.idempotencyKey}</code>
            </dd>
          </>
        )}
      </dl>

      <h2>{t('jobs.job.timeline')}</h2>
      <ol className="timeline">
        {(job.events ?? []).map((e, i) => (
          <li key={`${e.at}-${i}`}>
            <time dateTime={e.at}>{formatDate(e.at, true)}</time>
            <JobStateBadge state={e.state} />
            {moves.movedAt.has(i) && (
              <span className="why" dir="auto">
                {t('jobs.job.movedTo', { printer: named(moves.movedAt.get(i)!) })}
              </span>
            )}
            {e.errorCode && (
              <span className="why">
                {errorWords(e.errorCode)} <code>{e.errorCode}</code>
              </span>
            )}
          </li>
        ))}
      </ol>

      <h2>{t('jobs.job.metadata')}</h2>
      {metadata.length === 0 ? (
        <p className="hint">{t('jobs.job.noMetadata')}</p>
      ) : (
        <dl className="facts">
          {metadata.map(([k, v]) => (
            <div key={k} className="fact">
              <dt>
                <code>{k}</code>
              </dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}

      {job.hasPreview && isLabel && (
        <>
          <h2>{t('jobs.preview.title')}</h2>
          <p className="hint">{t('jobs.preview.lead')}</p>
          {labels.data ? (
            <LabelPictures
              labels={labels.data.labels}
              count={labels.data.count}
              skipped={labels.data.skipped}
              warnings={labels.data.warnings}
              alt={(n) => t('jobs.labels.alt', { n, id: job.id })}
              code={
                content.data && isLabelCode ? (
                  <>
                    <h3>{t('jobs.labels.code')}</h3>
                    <ContentView type={job.type} content={content.data} />
                  </>
                ) : undefined
              }
            />
          ) : labels.isError ? (
            <LoadError error={labels.error} onRetry={() => void labels.refetch()} />
          ) : (
            <Loading />
          )}
        </>
      )}

      {job.hasPreview && !isLabel && (
        <>
          <h2>{t('jobs.preview.title')}</h2>
          <p className="hint">{t('jobs.preview.lead')}</p>
          {preview.data ? (
            <Preview src={preview.data} alt={t('jobs.preview.alt', { id: job.id })} />
          ) : preview.isError ? (
            <LoadError error={preview.error} onRetry={() => void preview.refetch()} />
          ) : (
            <Loading />
          )}
        </>
      )}

      {!(isLabel && job.hasPreview) && (
        <>
          <h2>{t('jobs.content.title')}</h2>
          {!job.contentRetained ? (
            <p className="hint">{t('jobs.content.gone')}</p>
          ) : content.data ? (
            <ContentView type={job.type} content={content.data} />
          ) : content.isError ? (
            content.error instanceof ApiError && content.error.status === 404 ? (
              <p className="hint">{t('jobs.content.gone')}</p>
            ) : (
              <LoadError error={content.error} onRetry={() => void content.refetch()} />
            )
          ) : (
            <Loading />
          )}
        </>
      )}
    </section>
  );
}

/** The words of a refused action: the 409s explained, else the API's message. */
function refusal(error: unknown, action: 'cancel' | 'reprint'): string {
  if (error instanceof ApiError) {
    if (error.code === 'JOB_ALREADY_FINISHED') return 'jobs.actions.alreadyFinished';
    if (error.code === 'CONFLICT') {
      if (action === 'reprint') return 'jobs.actions.contentGone';
      return /locally|local/.test(error.message)
        ? 'jobs.actions.localJob'
        : 'jobs.actions.beingSent';
    }
    if (error.code === 'LICENSE_LIMIT') return 'jobs.actions.quota';
    if (error.code === 'FORBIDDEN') return 'jobs.actions.forbidden';
    if (error.status < 500) return 'jobs.actions.refused';
  }
  return error instanceof ApiError ? 'errors.server' : 'errors.connection';
}

function Actions({ orgId, mode, job }: { orgId: string; mode: Mode; job: Job }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canWrite = useCan(orgId, 'jobs:write');
  const { cancel, reprint } = useJobAction(orgId, mode, job.id);
  const [asking, setAsking] = useState(false);
  if (!canWrite) return null;
  const finished = FINISHED.includes(job.state);
  const error = cancel.error ?? reprint.error;
  const refused = cancel.error
    ? refusal(cancel.error, 'cancel')
    : refusal(reprint.error, 'reprint');
  return (
    <div className="actions job-actions">
      {!finished && (
        <Button variant="danger" busy={cancel.isPending} onClick={() => setAsking(true)}>
          {t('jobs.actions.cancel')}
        </Button>
      )}
      {job.contentRetained && (
        <Button
          variant="secondary"
          busy={reprint.isPending}
          onClick={() => {
            cancel.reset();
            reprint.mutate(undefined, {
              onSuccess: (copy) =>
                void navigate(`/o/${orgId}/jobs/${copy.id}${mode === 'test' ? '?mode=test' : ''}`),
            });
          }}
        >
          {t('jobs.actions.reprint')}
        </Button>
      )}
      {error ? (
        <p className="form-error" role="alert">
          {t(refused, { message: error instanceof Error ? error.message : '' })}
        </p>
      ) : null}
      {cancel.isSuccess && (
        <p className="hint" role="status">
          {t('jobs.actions.cancelled')}
        </p>
      )}
      {asking && (
        <Dialog
          title={t('jobs.actions.confirmTitle', { id: job.id })}
          onClose={() => setAsking(false)}
        >
          <p>{t('jobs.actions.confirmText')}</p>
          <div className="actions">
            <Button
              variant="danger"
              onClick={() => {
                setAsking(false);
                reprint.reset();
                cancel.mutate();
              }}
            >
              {t('jobs.actions.confirm')}
            </Button>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              {t('jobs.actions.keep')}
            </Button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
