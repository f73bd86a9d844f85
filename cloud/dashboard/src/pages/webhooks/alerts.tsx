/**
 * Alert rules (a device or printer offline, paper out, a failure rate) with the channels they
 * use, and the organization's open and resolved alerts.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, data, type Schemas } from '../../api/client';
import { queryClient } from '../../data';
import {
  Button,
  Checkbox,
  ConfirmDialog,
  Field,
  fieldError,
  FormError,
  LastData,
  Loading,
  SelectField,
  StatusBadge,
  ResourceTable,
  RowAction,
} from '../../ui';
import { useDevices } from '../devices/data';
import { usePrinters } from '../printers/data';
import { ShownTime } from '../shown-time';
import { useAlertRules, useAlerts, webhookKeys, type AlertRuleInput } from './data';
import { QueryError } from './parts';

type Rule = Schemas['AlertRule'];
type Kind = Rule['kind'];
type Channel = Rule['channels'][number];
const KINDS: Kind[] = ['device_offline', 'printer_offline', 'paper_out', 'failure_rate'];
const CHANNELS: Channel[] = ['webhook', 'email'];

function useWords() {
  const { t } = useTranslation();
  const kind: Record<Kind, string> = {
    device_offline: t('alerts.kind.deviceOffline'),
    printer_offline: t('alerts.kind.printerOffline'),
    paper_out: t('alerts.kind.paperOut'),
    failure_rate: t('alerts.kind.failureRate'),
  };
  const channel: Record<Channel, string> = {
    webhook: t('alerts.channel.webhook'),
    email: t('alerts.channel.email'),
  };
  return { kind, channel };
}

export function AlertsSection({ orgId, canWrite }: { orgId: string; canWrite: boolean }) {
  const { t } = useTranslation();
  const words = useWords();
  const rules = useAlertRules(orgId, true);
  const alerts = useAlerts(orgId, true);
  const devices = useDevices(orgId);
  const printers = usePrinters(orgId, 'live');
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Rule>();
  // An alert names a device or a printer by id (an organization's own for failure_rate).
  const subjectName = (id: string) => {
    const printer = printers.data?.data.find((p) => p.id === id);
    return devices.data?.data.find((d) => d.id === id)?.name ?? printer?.alias ?? printer?.name;
  };
  return (
    <section aria-labelledby="alerts-title" className="alerts">
      <div className="toolbar">
        <h2 id="alerts-title">{t('alerts.title')}</h2>
        {canWrite && !creating && (
          <Button variant="secondary" onClick={() => setCreating(true)}>
            {t('alerts.newRule')}
          </Button>
        )}
      </div>
      <p className="hint">{t('alerts.lead')}</p>
      {creating && <CreateRule orgId={orgId} onDone={() => setCreating(false)} />}
      {rules.isError && !rules.data ? (
        <QueryError query={rules} />
      ) : !rules.data ? (
        <Loading />
      ) : (
        <LastData query={rules}>
          <h3>{t('alerts.rules')}</h3>
          {rules.data.data.length === 0 ? (
            <p className="empty">{t('alerts.noRules')}</p>
          ) : (
            <ResourceTable
              rows={rules.data.data}
              rowKey={(r) => r.id}
              columns={[
                {
                  header: t('alerts.when'),
                  cell: (r) => (
                    <div>
                      {words.kind[r.kind]}
                      {r.kind === 'failure_rate' && (
                        <span className="hint block">
                          {t('alerts.threshold', {
                            percent: r.thresholdPercent ?? '',
                            minutes: r.windowMinutes ?? '',
                            jobs: r.minJobs ?? '',
                          })}
                        </span>
                      )}
                    </div>
                  ),
                },
                {
                  header: t('alerts.channels'),
                  cell: (r) => r.channels.map((c) => words.channel[c]).join(', '),
                },
                { header: t('alerts.created'), cell: (r) => <ShownTime iso={r.createdAt} /> },
              ]}
              actions={
                canWrite &&
                ((r) => (
                  <RowAction
                    label={t('alerts.delete')}
                    named={t('alerts.deleteNamed', { kind: words.kind[r.kind] })}
                    onClick={() => setDeleting(r)}
                  />
                ))
              }
            />
          )}
        </LastData>
      )}
      {alerts.isError && !alerts.data ? (
        <QueryError query={alerts} />
      ) : !alerts.data ? (
        <Loading />
      ) : (
        <LastData query={alerts}>
          <h3>{t('alerts.alerts')}</h3>
          {alerts.data.data.length === 0 ? (
            <p className="empty">{t('alerts.noAlerts')}</p>
          ) : (
            <ResourceTable
              rows={alerts.data.data}
              rowKey={(a) => a.id}
              columns={[
                { header: t('alerts.what'), cell: (a) => words.kind[a.kind] },
                {
                  header: t('alerts.subject'),
                  cell: (a) =>
                    a.kind === 'failure_rate'
                      ? t('alerts.allJobs')
                      : (subjectName(a.subjectId) ?? <code>{a.subjectId}</code>),
                },
                {
                  header: t('alerts.state'),
                  cell: (a) =>
                    a.state === 'open' ? (
                      <StatusBadge tone="bad">{t('alerts.open')}</StatusBadge>
                    ) : (
                      <StatusBadge tone="ok">{t('alerts.closed')}</StatusBadge>
                    ),
                },
                { header: t('alerts.opened'), cell: (a) => <ShownTime iso={a.openedAt} /> },
                {
                  header: t('alerts.resolved'),
                  cell: (a) => (a.resolvedAt ? <ShownTime iso={a.resolvedAt} /> : '—'),
                },
              ]}
            />
          )}
        </LastData>
      )}
      {deleting && (
        <ConfirmDialog
          title={t('alerts.deleteTitle', { kind: words.kind[deleting.kind] })}
          message={t('alerts.deleteConfirm')}
          action={t('alerts.delete')}
          run={() =>
            data(
              api.DELETE('/orgs/{orgId}/alert-rules/{id}', {
                params: { path: { orgId, id: deleting.id } },
              }),
            )
          }
          onDone={() => queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'alerts'] })}
          onClose={() => setDeleting(undefined)}
        />
      )}
    </section>
  );
}

function CreateRule({ orgId, onDone }: { orgId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const words = useWords();
  const [form, setForm] = useState({
    kind: 'printer_offline' as Kind,
    channels: ['email'] as Channel[],
    thresholdPercent: '20',
    windowMinutes: '60',
    minJobs: '10',
  });
  const create = useMutation({
    mutationFn: () => {
      const body: AlertRuleInput = { kind: form.kind, channels: form.channels };
      if (form.kind === 'failure_rate') {
        body.thresholdPercent = Number(form.thresholdPercent);
        body.windowMinutes = Number(form.windowMinutes);
        body.minJobs = Number(form.minJobs);
      }
      return data(api.POST('/orgs/{orgId}/alert-rules', { params: { path: { orgId } }, body }));
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.rules(orgId) });
      onDone();
    },
  });
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
      noValidate
    >
      <h3>{t('alerts.newRule')}</h3>
      <SelectField
        label={t('alerts.when')}
        value={form.kind}
        onChange={(e) => setForm({ ...form, kind: e.target.value as Kind })}
        error={fieldError(create.error, 'kind')}
      >
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {words.kind[k]}
          </option>
        ))}
      </SelectField>
      {form.kind === 'failure_rate' && (
        <div className="row">
          <Field
            label={t('alerts.thresholdPercent')}
            type="number"
            inputMode="numeric"
            value={form.thresholdPercent}
            onChange={(e) => setForm({ ...form, thresholdPercent: e.target.value })}
            error={fieldError(create.error, 'thresholdPercent')}
          />
          <Field
            label={t('alerts.windowMinutes')}
            type="number"
            inputMode="numeric"
            value={form.windowMinutes}
            onChange={(e) => setForm({ ...form, windowMinutes: e.target.value })}
            error={fieldError(create.error, 'windowMinutes')}
          />
          <Field
            label={t('alerts.minJobs')}
            type="number"
            inputMode="numeric"
            value={form.minJobs}
            onChange={(e) => setForm({ ...form, minJobs: e.target.value })}
            error={fieldError(create.error, 'minJobs')}
          />
        </div>
      )}
      <fieldset>
        <legend>{t('alerts.channels')}</legend>
        {CHANNELS.map((c) => (
          <Checkbox
            key={c}
            label={words.channel[c]}
            checked={form.channels.includes(c)}
            onChange={(e) =>
              setForm({
                ...form,
                channels: e.target.checked
                  ? CHANNELS.filter((x) => x === c || form.channels.includes(x))
                  : form.channels.filter((x) => x !== c),
              })
            }
          />
        ))}
        {fieldError(create.error, 'channels') && (
          <p className="field-error" role="alert">
            {fieldError(create.error, 'channels')}
          </p>
        )}
      </fieldset>
      <FormError error={create.error} />
      <div className="actions">
        <Button variant="secondary" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" busy={create.isPending}>
          {t('alerts.create')}
        </Button>
      </div>
    </form>
  );
}
