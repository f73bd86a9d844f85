/**
 * Devices: the organization's agents (OS, agent version, last seen, online in a word and an icon),
 * renamed, grouped or deactivated; and activation codes to connect another computer. The list is
 * live: the live channel invalidates ['orgs', orgId, 'devices'] on device online/offline.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api, data, type Schemas } from '../../api/client';
import { queryClient, useCan } from '../../data';
import { formatDate } from '../../i18n';
import {
  Button,
  ConfirmDialog,
  Dialog,
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
  RowAction,
} from '../../ui';
import { useOrgId } from '../organization';
import { ShownTime } from '../shown-time';
import { deviceKeys, useDevices } from './data';
import './devices.css';

type Device = Schemas['Device'];

export function Devices() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const devices = useDevices(orgId);
  const canWrite = useCan(orgId, 'devices:write');
  const canActivate = useCan(orgId, 'activationCodes:write');
  const [editing, setEditing] = useState<Device>();
  const [deactivating, setDeactivating] = useState<Device>();
  if (devices.isError && !devices.data)
    return <LoadError error={devices.error} onRetry={() => void devices.refetch()} />;
  if (!devices.data) return <Loading />;
  const list = devices.data.data;
  return (
    <LastData query={devices}>
      <section>
        <PageTitle lead={t('devices.lead')}>{t('devices.title')}</PageTitle>
        {list.length === 0 ? (
          <div className="empty">
            <p>{t('devices.empty')}</p>
            {canActivate ? (
              <ActivationCode orgId={orgId} />
            ) : (
              <p className="hint">{t('devices.askAdmin')}</p>
            )}
          </div>
        ) : (
          <>
            {canActivate && <ActivationCode orgId={orgId} />}
            <ResourceTable
              className="devices"
              rows={list}
              rowKey={(d) => d.id}
              columns={[
                {
                  header: t('devices.name'),
                  cell: (d) => (
                    <div>
                      <strong>{d.name}</strong>
                      {d.groupId && (
                        <span className="hint block">
                          {t('devices.inGroup', { group: d.groupId })}
                        </span>
                      )}
                    </div>
                  ),
                },
                {
                  header: t('devices.state'),
                  cell: (d) =>
                    d.status === 'online' ? (
                      <StatusBadge tone="ok">{t('devices.online')}</StatusBadge>
                    ) : (
                      <StatusBadge tone="neutral">{t('devices.offline')}</StatusBadge>
                    ),
                },
                {
                  header: t('devices.system'),
                  cell: (d) =>
                    selfConnecting(d)
                      ? t('devices.selfConnecting', {
                          protocol: t(`cloudPrinter.protocols.${d.arch}`),
                        })
                      : `${d.os} · ${d.arch}`,
                },
                {
                  header: t('devices.agentVersion'),
                  cell: (d) => (selfConnecting(d) ? '—' : d.agentVersion),
                },
                {
                  header: t('devices.lastSeen'),
                  cell: (d) =>
                    d.lastSeenAt ? (
                      <ShownTime iso={d.lastSeenAt} stacked />
                    ) : (
                      t('devices.neverSeen')
                    ),
                },
              ]}
              actions={
                canWrite &&
                ((d) =>
                  selfConnecting(d) ? (
                    // Its address is revoked by removing the printer, on the Printers page.
                    <Link to={`/o/${orgId}/printers`}>{t('devices.managedOnPrinters')}</Link>
                  ) : (
                    <div className="actions tight">
                      <RowAction
                        label={t('devices.edit')}
                        named={t('devices.editNamed', { name: d.name })}
                        onClick={() => setEditing(d)}
                      />
                      <RowAction
                        label={t('devices.deactivate')}
                        named={t('devices.deactivateNamed', { name: d.name })}
                        onClick={() => setDeactivating(d)}
                      />
                    </div>
                  ))
              }
            />
          </>
        )}
        {editing && (
          <EditDevice orgId={orgId} device={editing} onClose={() => setEditing(undefined)} />
        )}
        {deactivating && (
          <ConfirmDialog
            title={t('devices.deactivateTitle', { name: deactivating.name })}
            message={t('devices.deactivateConfirm', { name: deactivating.name })}
            action={t('devices.deactivate')}
            run={() =>
              data(
                api.POST('/orgs/{orgId}/devices/{id}/deactivate', {
                  params: { path: { orgId, id: deactivating.id } },
                }),
              )
            }
            onDone={() => queryClient.invalidateQueries({ queryKey: deviceKeys.devices(orgId) })}
            onClose={() => setDeactivating(undefined)}
          />
        )}
      </section>
    </LastData>
  );
}

/** Creates a single-use code and shows it with Copy and its expiry. */
function ActivationCode({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const create = useMutation({
    mutationFn: () =>
      data(api.POST('/orgs/{orgId}/activation-codes', { params: { path: { orgId } }, body: {} })),
  });
  if (create.data) {
    return (
      <div className="panel activation">
        <SecretPanel label={t('devices.codeLabel')} value={create.data.code} />
        <p>
          {t('devices.codeExpires', { date: formatDate(create.data.expiresAt, true) })}{' '}
          <span className="hint">
            (<ShownTime iso={create.data.expiresAt} />)
          </span>
        </p>
        <p className="hint">{t('devices.codeHow')}</p>
        <div className="actions">
          <Button variant="secondary" busy={create.isPending} onClick={() => create.mutate()}>
            {t('devices.anotherCode')}
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="actions">
      <Button busy={create.isPending} onClick={() => create.mutate()}>
        {t('devices.createCode')}
      </Button>
      <FormError error={create.error} />
    </div>
  );
}

function EditDevice({
  orgId,
  device,
  onClose,
}: {
  orgId: string;
  device: Device;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ name: device.name, group: device.groupId ?? '' });
  const save = useMutation({
    mutationFn: () =>
      data(
        api.PATCH('/orgs/{orgId}/devices/{id}', {
          params: { path: { orgId, id: device.id } },
          body: { name: form.name, groupId: form.group.trim() === '' ? null : form.group.trim() },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: deviceKeys.devices(orgId) });
      onClose();
    },
  });
  return (
    <Dialog title={t('devices.editTitle', { name: device.name })} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <Field
          label={t('devices.name')}
          value={form.name}
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={fieldError(save.error, 'name')}
        />
        <Field
          label={t('devices.group')}
          hint={t('devices.groupHint')}
          value={form.group}
          onChange={(e) => setForm({ ...form, group: e.target.value })}
          error={fieldError(save.error, 'groupId')}
        />
        <FormError error={save.error} />
        <div className="actions">
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" busy={save.isPending}>
            {t('devices.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A printer that connects by itself (CloudPRNT, SDP): a device of its own, with no agent. */
function selfConnecting(d: { os: string; arch: string }): boolean {
  return d.os === 'printer' && (d.arch === 'cloudprnt' || d.arch === 'sdp');
}
