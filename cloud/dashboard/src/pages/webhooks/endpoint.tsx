/**
 * One endpoint: send a webhook.test event, rotate the secret (shown once), disable or enable
 * again, change its events, delete; and its deliveries with status code, attempts, next retry and
 * the body sent, each one resent on demand.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, data, type Schemas } from '../../api/client';
import { queryClient } from '../../data';
import { formatNumber } from '../../i18n';
import {
  Button,
  ConfirmDialog,
  Dialog,
  fieldError,
  FormError,
  LastData,
  Loading,
  SecretPanel,
  StatusBadge,
  ResourceTable,
} from '../../ui';
import { ShownTime } from '../shown-time';
import { useDeliveries, webhookKeys, type WebhookEvent } from './data';
import { EventChoice, QueryError } from './parts';

type Endpoint = Schemas['DashboardWebhook'];
type Delivery = Schemas['WebhookDelivery'];

export function EndpointDetail({
  orgId,
  endpoint,
  canWrite,
  onClose,
}: {
  orgId: string;
  endpoint: Endpoint;
  canWrite: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const path = { params: { path: { orgId, id: endpoint.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.webhooks(orgId) });
  const [asking, setAsking] = useState<'rotate' | 'delete' | 'events'>();
  const sendTest = useMutation({
    mutationFn: () => data(api.POST('/orgs/{orgId}/webhooks/{id}/test', path)),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(orgId, endpoint.id) }),
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      data(api.PATCH('/orgs/{orgId}/webhooks/{id}', { ...path, body: { enabled } })),
    onSuccess: refresh,
  });
  return (
    <section className="panel endpoint" aria-labelledby="endpoint-title">
      <div className="toolbar">
        <h2 id="endpoint-title">{t('webhooks.endpointTitle', { url: endpoint.url })}</h2>
        <Button variant="secondary" onClick={onClose}>
          {t('webhooks.close')}
        </Button>
      </div>
      {!endpoint.enabled && (
        <div className="notice error" role="status">
          <p>
            {/* The one reason a person gives; the others come from the delivery worker. */}
            {endpoint.disabledReason && endpoint.disabledReason !== 'disabled by a member'
              ? t('webhooks.disabledBecause', { reason: endpoint.disabledReason })
              : t('webhooks.disabledByMember')}
          </p>
        </div>
      )}
      <p className="hint">{t('webhooks.subscribed', { events: endpoint.events.join(', ') })}</p>
      {canWrite && (
        <div className="actions">
          <Button busy={sendTest.isPending} onClick={() => sendTest.mutate()}>
            {t('webhooks.sendTest')}
          </Button>
          <Button variant="secondary" onClick={() => setAsking('events')}>
            {t('webhooks.changeEvents')}
          </Button>
          <Button variant="secondary" onClick={() => setAsking('rotate')}>
            {t('webhooks.rotate')}
          </Button>
          <Button
            variant="secondary"
            busy={toggle.isPending}
            onClick={() => toggle.mutate(!endpoint.enabled)}
          >
            {endpoint.enabled ? t('webhooks.disable') : t('webhooks.enable')}
          </Button>
          <Button variant="danger" onClick={() => setAsking('delete')}>
            {t('webhooks.delete')}
          </Button>
        </div>
      )}
      <FormError error={sendTest.error ?? toggle.error} />
      {sendTest.isSuccess && (
        <p className="hint" role="status">
          {t('webhooks.testQueued')}
        </p>
      )}
      {asking === 'rotate' && (
        <RotateSecret orgId={orgId} endpoint={endpoint} onClose={() => setAsking(undefined)} />
      )}
      {asking === 'delete' && (
        <ConfirmDialog
          title={t('webhooks.deleteTitle', { url: endpoint.url })}
          message={t('webhooks.deleteConfirm')}
          action={t('webhooks.delete')}
          run={() => data(api.DELETE('/orgs/{orgId}/webhooks/{id}', path))}
          onDone={async () => {
            onClose();
            await refresh();
          }}
          onClose={() => setAsking(undefined)}
        />
      )}
      {asking === 'events' && (
        <ChangeEvents orgId={orgId} endpoint={endpoint} onClose={() => setAsking(undefined)} />
      )}
      <Deliveries orgId={orgId} endpointId={endpoint.id} canWrite={canWrite} />
    </section>
  );
}

function Deliveries({
  orgId,
  endpointId,
  canWrite,
}: {
  orgId: string;
  endpointId: string;
  canWrite: boolean;
}) {
  const { t } = useTranslation();
  const deliveries = useDeliveries(orgId, endpointId);
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      data(
        api.POST('/orgs/{orgId}/webhooks/{id}/deliveries/{deliveryId}/resend', {
          params: { path: { orgId, id: endpointId, deliveryId } },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(orgId, endpointId) }),
  });
  if (deliveries.isError && !deliveries.data) return <QueryError query={deliveries} />;
  if (!deliveries.data) return <Loading />;
  const list = deliveries.data.data;
  return (
    <LastData query={deliveries}>
      <h3 className="deliveries-title">{t('webhooks.deliveries')}</h3>
      {list.length === 0 ? (
        <p className="empty">{t('webhooks.noDeliveries')}</p>
      ) : (
        <ResourceTable
          className="deliveries"
          rows={list}
          rowKey={(d) => d.id}
          columns={[
            { header: t('webhooks.event'), cell: (d) => <SentEvent delivery={d} /> },
            { header: t('webhooks.result'), cell: (d) => <DeliveryResult delivery={d} /> },
            {
              header: t('webhooks.statusCode'),
              cell: (d) => (d.responseStatus === null ? '—' : String(d.responseStatus)),
            },
            { header: t('webhooks.attempts'), cell: (d) => formatNumber(d.attempts) },
            {
              header: t('webhooks.nextRetry'),
              cell: (d) => (d.nextAttemptAt ? <ShownTime iso={d.nextAttemptAt} /> : '—'),
            },
            {
              header: t('webhooks.sentAt'),
              cell: (d) => <ShownTime iso={d.lastAttemptAt ?? d.createdAt} />,
            },
          ]}
          actions={
            canWrite &&
            ((d) => (
              <Button
                variant="secondary"
                busy={resend.isPending && resend.variables === d.id}
                onClick={() => resend.mutate(d.id)}
                aria-label={t('webhooks.resendNamed', { event: d.type })}
              >
                {t('webhooks.resend')}
              </Button>
            ))
          }
        />
      )}
      <FormError error={resend.error} />
    </LastData>
  );
}

/** The event a delivery carried, with the body as sent (pretty when it is JSON). */
function SentEvent({ delivery: d }: { delivery: Delivery }) {
  const { t } = useTranslation();
  let body = d.body;
  try {
    body = JSON.stringify(JSON.parse(d.body), null, 2);
  } catch {
    // shown as sent
  }
  return (
    <div>
      <code>{d.type}</code>
      <details className="body-sent">
        <summary>{t('webhooks.bodySent')}</summary>
        <pre tabIndex={0}>{body}</pre>
      </details>
    </div>
  );
}

/** Delivered, failed (with the receiver's error) or pending. */
function DeliveryResult({ delivery: d }: { delivery: Delivery }) {
  const { t } = useTranslation();
  return (
    <div>
      {d.state === 'succeeded' ? (
        <StatusBadge tone="ok">{t('webhooks.delivered')}</StatusBadge>
      ) : d.state === 'failed' ? (
        <StatusBadge tone="bad">{t('webhooks.failed')}</StatusBadge>
      ) : (
        <StatusBadge tone="warn">{t('webhooks.pending')}</StatusBadge>
      )}
      {d.error && <span className="hint block">{d.error}</span>}
    </div>
  );
}

function RotateSecret({
  orgId,
  endpoint,
  onClose,
}: {
  orgId: string;
  endpoint: Endpoint;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const rotate = useMutation({
    mutationFn: () =>
      data(
        api.POST('/orgs/{orgId}/webhooks/{id}/rotate-secret', {
          params: { path: { orgId, id: endpoint.id } },
        }),
      ),
  });
  return (
    <Dialog title={t('webhooks.rotateTitle', { url: endpoint.url })} onClose={onClose}>
      {rotate.isSuccess ? (
        <>
          <SecretPanel label={t('webhooks.newSecretLabel')} value={rotate.data.secret} />
          <Button variant="secondary" onClick={onClose}>
            {t('common.done')}
          </Button>
        </>
      ) : (
        <>
          <p>{t('webhooks.rotateConfirm')}</p>
          <FormError error={rotate.error} />
          <div className="actions">
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" busy={rotate.isPending} onClick={() => rotate.mutate()}>
              {t('webhooks.rotate')}
            </Button>
          </div>
        </>
      )}
    </Dialog>
  );
}

function ChangeEvents({
  orgId,
  endpoint,
  onClose,
}: {
  orgId: string;
  endpoint: Endpoint;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [events, setEvents] = useState(endpoint.events as WebhookEvent[]);
  const save = useMutation({
    mutationFn: () =>
      data(
        api.PATCH('/orgs/{orgId}/webhooks/{id}', {
          params: { path: { orgId, id: endpoint.id } },
          body: { events },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: webhookKeys.webhooks(orgId) });
      onClose();
    },
  });
  return (
    <Dialog title={t('webhooks.changeEvents')} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <EventChoice value={events} onChange={setEvents} error={fieldError(save.error, 'events')} />
        <FormError error={save.error} />
        <div className="actions">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" busy={save.isPending}>
            {t('webhooks.saveEvents')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
