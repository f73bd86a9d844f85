/**
 * An organization's Overview: the answer on the first screen. Printers online, offline and
 * needing attention; today's jobs by state; the month's quota; the last failures with their
 * reason in words. Live: printer and job events refresh it (live.ts, key 'overview').
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccess, useBilling, useOrg } from '../data';
import { useMode } from '../frame';
import { formatDate, formatNumber, formatRelative } from '../i18n';
import { LastData, LoadError, Loading, PageTitle, StatusBadge, ResourceTable } from '../ui';
import { Usage } from './billing';
import { JOB_STATES } from './jobs/data';
import { useOrgId } from './organization';
import { useOverview } from './printers/data';
import { JobStateBadge, errorWords } from './printers/status';
import './printers/printers.css';

/** The viewer's midnight, as the API takes it (ISO 8601). */
function midnight(): string {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
}

export function Overview() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const [mode] = useMode();
  const since = useMemo(midnight, []);
  const org = useOrg(orgId);
  const access = useAccess(orgId);
  const billing = useBilling(orgId);
  const overview = useOverview(orgId, mode, since);
  const keep = mode === 'test' ? 'mode=test' : '';
  const link = (path: string, query = '') => {
    const q = [keep, query].filter(Boolean).join('&');
    return `/o/${orgId}${path}${q ? `?${q}` : ''}`;
  };
  if (overview.isError && !overview.data)
    return <LoadError error={overview.error} onRetry={() => void overview.refetch()} />;
  if (!overview.data || !org.data) return <Loading />;
  const { printers, jobs, lastFailures } = overview.data;
  return (
    <LastData query={overview}>
      <section>
        <PageTitle
          lead={
            access.data ? t('overview.role', { role: t(`roles.${access.data.role}`) }) : undefined
          }
        >
          {org.data.name}
        </PageTitle>
        <div className="overview-grid">
          <div className="overview-card">
            <h2>{t('overview2.printers')}</h2>
            {printers.total === 0 ? (
              <p>
                {t('overview2.noPrinters')}{' '}
                <Link to={link('/devices')}>{t('overview2.addPrinter')}</Link>
              </p>
            ) : (
              <ul>
                <li>
                  <StatusBadge tone="ok">{t('printers.status.online')}</StatusBadge>
                  <span className="count">{formatNumber(printers.online)}</span>
                </li>
                <li>
                  <StatusBadge tone="bad">{t('printers.status.offline')}</StatusBadge>
                  <span className="count">{formatNumber(printers.offline)}</span>
                </li>
                <li>
                  <StatusBadge tone="warn">{t('overview2.attention')}</StatusBadge>
                  <span className="count">{formatNumber(printers.attention)}</span>
                </li>
              </ul>
            )}
            <p>
              <Link to={link('/printers')}>{t('overview2.allPrinters')}</Link>
            </p>
          </div>
          <div className="overview-card">
            <h2>{t('overview2.jobsToday')}</h2>
            <ul>
              {JOB_STATES.map((s) => (
                <li key={s}>
                  <Link to={link('/jobs', `state=${s}&from=${encodeURIComponent(jobs.since)}`)}>
                    {t(`jobs.state.${s}`)}
                  </Link>
                  <span className="count">{formatNumber(jobs.byState[s] ?? 0)}</span>
                </li>
              ))}
            </ul>
          </div>
          {billing.data && (
            <div className="overview-card">
              <h2>{t('overview2.quota')}</h2>
              <Usage billing={billing.data} />
              {mode === 'test' && <p className="hint">{t('overview2.testFree')}</p>}
            </div>
          )}
        </div>
        <h2>{t('overview2.lastFailures')}</h2>
        {lastFailures.length === 0 ? (
          <p className="empty">{t('overview2.noFailures')}</p>
        ) : (
          <ResourceTable
            rows={lastFailures}
            rowKey={(job) => job.id}
            columns={[
              {
                header: t('jobs.columns.job'),
                cell: (job) => (
                  <Link to={link(`/jobs/${job.id}`)}>
                    <code>{job.id}</code>
                  </Link>
                ),
              },
              {
                header: t('jobs.columns.state'),
                cell: (job) => <JobStateBadge state={job.state} />,
              },
              { header: t('overview2.reason'), cell: (job) => errorWords(job.errorCode) },
              {
                header: t('jobs.columns.created'),
                cell: (job) => (
                  <time dateTime={job.createdAt} title={formatDate(job.createdAt, true)}>
                    {formatRelative(job.createdAt)}
                  </time>
                ),
              },
            ]}
          />
        )}
        <h2>{t('overview.next')}</h2>
        <ul className="next-steps">
          <li>
            <Link to={link('/developers')}>{t('overview.keys')}</Link>
          </li>
          <li>
            <Link to={link('/members')}>{t('overview.members')}</Link>
          </li>
          <li>
            <Link to={link('/settings')}>{t('overview.settings')}</Link>
          </li>
        </ul>
      </section>
    </LastData>
  );
}
