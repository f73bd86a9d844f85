/**
 * Jobs: the list of the mode on screen, newest first, with the /v1 filters kept in the URL
 * (`/o/org_…/jobs?state=failed&metadata.order=1042`; a group's jobs: `?printerGroupId=grp_…`),
 * live through the event channel (new jobs appear, states change in place: the filters are part
 * of the list's query key, so a job event refetches the filtered list too), and the way to print
 * one from here.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCan } from '../../data';
import { useMode } from '../../frame';
import { formatDate, formatRelative } from '../../i18n';
import {
  Button,
  Field,
  LastData,
  LoadError,
  Loading,
  PageTitle,
  ResourceTable,
  SelectField,
} from '../../ui';
import { useOrgId } from '../organization';
import { useGroups, type PrinterGroup } from '../groups/data';
import { usePrinters, type Printer } from '../printers/data';
import { JobStateBadge, errorWords } from '../printers/status';
import { CreateJob } from './create';
import { JOB_STATES, useJobs, type Job, type JobFilters, type JobState } from './data';
import './jobs.css';

export { JobPage } from './job';

const FILTER_NAMES = ['state', 'printerId', 'deviceId', 'printerGroupId', 'from', 'to'] as const;

/** The filters the URL names (unknown values are left out, not guessed). */
export function filtersOf(params: URLSearchParams): JobFilters {
  const filters: JobFilters = { metadata: {} };
  const state = params.get('state');
  if (state && (JOB_STATES as string[]).includes(state)) filters.state = state as JobState;
  for (const name of ['printerId', 'deviceId', 'printerGroupId', 'from', 'to'] as const) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  for (const [name, value] of params) {
    if (name.startsWith('metadata.') && name.length > 9 && value) {
      filters.metadata[name.slice(9)] = value;
    }
  }
  return filters;
}

/** `from`/`to` as the API takes them, from a date field (the viewer's midnight). */
const dayToIso = (day: string, end: boolean): string => {
  const d = new Date(`${day}T00:00:00`);
  if (end) d.setDate(d.getDate() + 1);
  return d.toISOString();
};
const isoToDay = (iso: string | undefined, end: boolean): string => {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (end) d.setDate(d.getDate() - 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

export function Jobs() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const [mode] = useMode();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersOf(params), [params]);
  const jobs = useJobs(orgId, mode, filters);
  const printers = usePrinters(orgId, mode);
  const groups = useGroups(orgId);
  const canWrite = useCan(orgId, 'jobs:write');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Job>();

  const setFilter = (name: string, value: string) =>
    setParams(
      (p) => {
        if (value) p.set(name, value);
        else p.delete(name);
        return p;
      },
      { replace: true },
    );
  const clear = () =>
    setParams(
      (p) => {
        for (const name of [...p.keys()]) if (name !== 'mode') p.delete(name);
        return p;
      },
      { replace: true },
    );
  const filtered = FILTER_NAMES.some((n) => filters[n]) || Object.keys(filters.metadata).length > 0;
  const printerList = printers.data?.data ?? [];
  const byId = new Map(printerList.map((p) => [p.id, p]));
  const groupList = groups.data?.data ?? [];
  const list = jobs.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <section>
      <PageTitle lead={mode === 'test' ? t('jobs.leadTest') : t('jobs.lead')}>
        {t('jobs.title')}
      </PageTitle>
      <div className="toolbar">
        <h2>{t('jobs.listTitle')}</h2>
        {canWrite && !creating && (
          <Button onClick={() => setCreating(true)}>{t('jobs.create.open')}</Button>
        )}
      </div>
      {creating && (
        <CreateJob
          orgId={orgId}
          mode={mode}
          printers={printerList}
          groups={groupList}
          onClose={(job) => {
            setCreating(false);
            if (job) setCreated(job);
          }}
        />
      )}
      {created && (
        <p className="notice success" role="status">
          {t('jobs.create.done')}{' '}
          <Link to={`/o/${orgId}/jobs/${created.id}${mode === 'test' ? '?mode=test' : ''}`}>
            {created.id}
          </Link>
        </p>
      )}
      <Filters
        filters={filters}
        printers={printerList}
        groups={groupList}
        setFilter={setFilter}
        clear={filtered ? clear : undefined}
      />
      {jobs.isError && !jobs.data ? (
        <LoadError error={jobs.error} onRetry={() => void jobs.refetch()} />
      ) : !jobs.data ? (
        <Loading />
      ) : (
        <LastData query={jobs}>
          {list.length === 0 ? (
            <div className="empty">
              {filtered ? (
                <>
                  <p>{t('jobs.emptyFiltered')}</p>
                  <Button variant="secondary" onClick={clear}>
                    {t('jobs.filters.clear')}
                  </Button>
                </>
              ) : (
                <>
                  <p>{mode === 'test' ? t('jobs.emptyTest') : t('jobs.empty')}</p>
                  <p>
                    <Link to={`/o/${orgId}/printers${mode === 'test' ? '?mode=test' : ''}`}>
                      {t('jobs.emptyPrinters')}
                    </Link>{' '}
                    ·{' '}
                    <Link to={`/o/${orgId}/developers${mode === 'test' ? '?mode=test' : ''}`}>
                      {t('jobs.emptyKeys')}
                    </Link>
                  </p>
                </>
              )}
            </div>
          ) : (
            <JobTable
              orgId={orgId}
              jobs={list}
              printers={byId}
              groups={new Map(groupList.map((g) => [g.id, g]))}
              test={mode === 'test'}
            />
          )}
          {jobs.hasNextPage && (
            <Button
              variant="secondary"
              busy={jobs.isFetchingNextPage}
              onClick={() => void jobs.fetchNextPage()}
            >
              {t('jobs.more')}
            </Button>
          )}
        </LastData>
      )}
    </section>
  );
}

function Filters({
  filters,
  printers,
  groups,
  setFilter,
  clear,
}: {
  filters: JobFilters;
  printers: Printer[];
  groups: PrinterGroup[];
  setFilter: (name: string, value: string) => void;
  clear: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const devices = new Map(
    printers.filter((p) => p.device).map((p) => [p.device!.id, p.device!.name]),
  );
  const [metaKey, metaValue] = Object.entries(filters.metadata)[0] ?? ['', ''];
  const [meta, setMeta] = useState(metaKey ? `${metaKey}=${metaValue}` : '');
  const applyMeta = () => {
    if (metaKey) setFilter(`metadata.${metaKey}`, '');
    const eq = meta.indexOf('=');
    if (eq > 0) setFilter(`metadata.${meta.slice(0, eq).trim()}`, meta.slice(eq + 1).trim());
  };
  return (
    <form
      className="filters"
      aria-label={t('jobs.filters.title')}
      onSubmit={(e) => {
        e.preventDefault();
        applyMeta();
      }}
    >
      <SelectField
        label={t('jobs.filters.state')}
        value={filters.state ?? ''}
        onChange={(e) => setFilter('state', e.target.value)}
      >
        <option value="">{t('jobs.filters.any')}</option>
        {JOB_STATES.map((s) => (
          <option key={s} value={s}>
            {t(`jobs.state.${s}`)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t('jobs.filters.printer')}
        value={filters.printerId ?? ''}
        onChange={(e) => setFilter('printerId', e.target.value)}
      >
        <option value="">{t('jobs.filters.any')}</option>
        {printers.map((p) => (
          <option key={p.id} value={p.id}>
            {p.alias ?? p.name}
          </option>
        ))}
      </SelectField>
      {(groups.length > 0 || filters.printerGroupId) && (
        <SelectField
          label={t('jobs.filters.group')}
          value={filters.printerGroupId ?? ''}
          onChange={(e) => setFilter('printerGroupId', e.target.value)}
        >
          <option value="">{t('jobs.filters.any')}</option>
          {groups.map((g) => (
            <option key={g.id} value={g.id} dir="auto">
              {g.name}
            </option>
          ))}
          {/* A link to a group deleted since still says which id the list is filtered by. */}
          {filters.printerGroupId && !groups.some((g) => g.id === filters.printerGroupId) && (
            <option value={filters.printerGroupId}>{filters.printerGroupId}</option>
          )}
        </SelectField>
      )}
      <SelectField
        label={t('jobs.filters.device')}
        value={filters.deviceId ?? ''}
        onChange={(e) => setFilter('deviceId', e.target.value)}
      >
        <option value="">{t('jobs.filters.any')}</option>
        {[...devices].map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </SelectField>
      <Field
        label={t('jobs.filters.from')}
        type="date"
        value={isoToDay(filters.from, false)}
        onChange={(e) => setFilter('from', e.target.value ? dayToIso(e.target.value, false) : '')}
      />
      <Field
        label={t('jobs.filters.to')}
        type="date"
        value={isoToDay(filters.to, true)}
        onChange={(e) => setFilter('to', e.target.value ? dayToIso(e.target.value, true) : '')}
      />
      <Field
        label={t('jobs.filters.metadata')}
        hint={t('jobs.filters.metadataHint')}
        value={meta}
        onChange={(e) => setMeta(e.target.value)}
        onBlur={applyMeta}
      />
      {clear && (
        <Button variant="secondary" onClick={clear}>
          {t('jobs.filters.clear')}
        </Button>
      )}
    </form>
  );
}

function JobTable({
  orgId,
  jobs,
  printers,
  groups,
  test,
}: {
  orgId: string;
  jobs: Job[];
  printers: Map<string, Printer>;
  groups: Map<string, PrinterGroup>;
  test: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ResourceTable
      className="jobs"
      rows={jobs}
      rowKey={(job) => job.id}
      columns={[
        {
          header: t('jobs.columns.job'),
          cell: (job) => (
            <Link to={`/o/${orgId}/jobs/${job.id}${test ? '?mode=test' : ''}`}>
              <code>{job.id}</code>
            </Link>
          ),
        },
        {
          header: t('jobs.columns.state'),
          cell: (job) => (
            <div>
              <JobStateBadge state={job.state} />
              {job.errorCode && <span className="why">{errorWords(job.errorCode)}</span>}
            </div>
          ),
        },
        {
          header: t('jobs.columns.printer'),
          cell: (job) => {
            const printer = job.printerId ? printers.get(job.printerId) : undefined;
            const group = job.printerGroupId ? groups.get(job.printerGroupId) : undefined;
            return (
              <div>
                <span dir="auto">
                  {printer ? (printer.alias ?? printer.name) : (job.printerId ?? '—')}
                </span>
                {job.printerGroupId && (
                  <span className="hint block" dir="auto">
                    {t('jobs.inGroup', { name: group?.name ?? job.printerGroupId })}
                  </span>
                )}
              </div>
            );
          },
        },
        { header: t('jobs.columns.type'), cell: (job) => job.type },
        {
          header: t('jobs.columns.metadata'),
          cell: (job) =>
            Object.entries(job.metadata)
              .map(([k, v]) => `${k}=${v}`)
              .join(', '),
        },
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
  );
}
