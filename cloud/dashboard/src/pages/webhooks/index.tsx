/**
 * Webhooks: the endpoints of the mode the test/live switch shows (create with the secret shown
 * once, the events to subscribe), one endpoint's deliveries (`?endpoint=` in the URL), and the
 * alert rules with open and resolved alerts. Below the Business plan the API answers 403
 * PLAN_REQUIRED: the page says so in words, with a link to Billing.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api, data } from '../../api/client';
import { queryClient, useCan } from '../../data';
import { useMode, type Mode } from '../../frame';
import {
  Button,
  Field,
  fieldError,
  FormError,
  LastData,
  LoadError,
  Loading,
  PageTitle,
  SecretPanel,
  StatusBadge,
  ResourceTable,
} from '../../ui';
import { useOrgId } from '../organization';
import { ShownTime } from '../shown-time';
import { AlertsSection } from './alerts';
import { planRequired, useWebhooks, webhookKeys, type WebhookEvent } from './data';
import { EndpointDetail } from './endpoint';
import { EventChoice } from './parts';
import './webhooks.css';

export function Webhooks() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const [mode] = useMode();
  const [params, setParams] = useSearchParams();
  const webhooks = useWebhooks(orgId);
  const canWrite = useCan(orgId, 'webhooks:write');
  const [creating, setCreating] = useState(false);
  const title = <PageTitle lead={t('webhooks.lead')}>{t('webhooks.title')}</PageTitle>;
  if (planRequired(webhooks.error)) {
    return (
      <section className="narrow">
        {title}
        <div className="notice" role="status">
          <p>
            <Trans
              i18nKey="webhooks.planRequired"
              components={{ a: <Link to={`/o/${orgId}/billing`} /> }}
            />
          </p>
        </div>
      </section>
    );
  }
  if (webhooks.isError && !webhooks.data)
    return <LoadError error={webhooks.error} onRetry={() => void webhooks.refetch()} />;
  if (!webhooks.data) return <Loading />;
  const list = webhooks.data.data.filter((w) => w.mode === mode);
  const selected = list.find((w) => w.id === params.get('endpoint'));
  const select = (id: string | undefined) =>
    setParams((p) => {
      if (id) p.set('endpoint', id);
      else p.delete('endpoint');
      return p;
    });
  return (
    <LastData query={webhooks}>
      <section>
        {title}
        <div className="toolbar">
          <h2>{mode === 'test' ? t('webhooks.testEndpoints') : t('webhooks.liveEndpoints')}</h2>
          {canWrite && !creating && (
            <Button onClick={() => setCreating(true)}>{t('webhooks.new')}</Button>
          )}
        </div>
        {creating && <CreateEndpoint orgId={orgId} mode={mode} onDone={() => setCreating(false)} />}
        {list.length === 0 ? (
          <p className="empty">
            {mode === 'test' ? t('webhooks.emptyTest') : t('webhooks.emptyLive')}
          </p>
        ) : (
          <ResourceTable
            rows={list}
            rowKey={(w) => w.id}
            rowProps={(w) => ({ 'aria-current': w.id === selected?.id ? 'true' : undefined })}
            columns={[
              {
                header: t('webhooks.url'),
                cell: (w) => (
                  <div>
                    <button
                      type="button"
                      className="link endpoint-url"
                      onClick={() => select(w.id)}
                    >
                      {w.url}
                    </button>
                    {w.description && <span className="hint block">{w.description}</span>}
                  </div>
                ),
              },
              {
                header: t('webhooks.events'),
                cell: (w) => <span className="event-list">{w.events.join(', ')}</span>,
              },
              {
                header: t('webhooks.state'),
                cell: (w) =>
                  w.enabled ? (
                    <StatusBadge tone="ok">{t('webhooks.enabled')}</StatusBadge>
                  ) : (
                    <StatusBadge tone="bad">{t('webhooks.disabled')}</StatusBadge>
                  ),
              },
              { header: t('webhooks.created'), cell: (w) => <ShownTime iso={w.createdAt} /> },
            ]}
          />
        )}
        {selected && (
          <EndpointDetail
            orgId={orgId}
            endpoint={selected}
            canWrite={canWrite}
            onClose={() => select(undefined)}
          />
        )}
        <AlertsSection orgId={orgId} canWrite={canWrite} />
      </section>
    </LastData>
  );
}

function CreateEndpoint({
  orgId,
  mode,
  onDone,
}: {
  orgId: string;
  mode: Mode;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<{ url: string; description: string; events: WebhookEvent[] }>({
    url: '',
    description: '',
    events: ['job.printed', 'job.failed'],
  });
  const create = useMutation({
    mutationFn: () =>
      data(
        api.POST('/orgs/{orgId}/webhooks', {
          params: { path: { orgId } },
          body: {
            url: form.url,
            events: form.events,
            description: form.description.trim() === '' ? null : form.description,
            mode,
          },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.webhooks(orgId) }),
  });
  if (create.isSuccess) {
    return (
      <div className="panel">
        <h3>{t('webhooks.createdTitle', { url: create.data.webhook.url })}</h3>
        <SecretPanel label={t('webhooks.secretLabel')} value={create.data.secret} />
        <Button variant="secondary" onClick={onDone}>
          {t('common.done')}
        </Button>
      </div>
    );
  }
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate();
      }}
      noValidate
    >
      <h3>{mode === 'test' ? t('webhooks.newTest') : t('webhooks.newLive')}</h3>
      <Field
        label={t('webhooks.url')}
        hint={t('webhooks.urlHint')}
        type="url"
        value={form.url}
        onChange={(e) => setForm({ ...form, url: e.target.value })}
        error={fieldError(create.error, 'url')}
      />
      <Field
        label={t('webhooks.description')}
        value={form.description}
        onChange={(e) => setForm({ ...form, description: e.target.value })}
        error={fieldError(create.error, 'description')}
      />
      <EventChoice
        value={form.events}
        onChange={(events) => setForm({ ...form, events })}
        error={fieldError(create.error, 'events')}
      />
      <FormError error={create.error} />
      <div className="actions">
        <Button variant="secondary" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" busy={create.isPending}>
          {t('webhooks.create')}
        </Button>
      </div>
    </form>
  );
}
