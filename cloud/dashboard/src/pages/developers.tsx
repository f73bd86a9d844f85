/**
 * Developers: API keys of the mode the test/live switch shows (create with name, mode and scopes;
 * the key shown once with Copy; the list with prefix, scopes, last use; revoke after a question),
 * then local mode's signing keys and allowed origins (local-mode.tsx).
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, data, type ApiKey } from '../api/client';
import { keys, queryClient, useApiKeys, useCan, useOrg } from '../data';
import { useMode, type Mode } from '../frame';
import { formatDate, formatRelative } from '../i18n';
import {
  Button,
  ResourceTable,
  RowAction,
  Checkbox,
  Field,
  FormError,
  LastData,
  LoadError,
  Loading,
  PageTitle,
  SecretPanel,
  fieldError,
  ConfirmDialog,
} from '../ui';
import { AllowedOrigins, SigningKeys } from './local-mode';
import { useOrgId } from './organization';

type Scope = ApiKey['scopes'][number];
const SCOPES: Scope[] = [
  'jobs:write',
  'jobs:read',
  'printers:read',
  'devices:read',
  'devices:write',
  'webhooks:write',
];
const DEFAULT_SCOPES: Scope[] = ['jobs:write', 'jobs:read', 'printers:read'];

export function Developers() {
  const { t } = useTranslation();
  const orgId = useOrgId();
  const [mode] = useMode();
  const apiKeys = useApiKeys(orgId);
  const org = useOrg(orgId);
  const canWrite = useCan(orgId, 'apiKeys:write');
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey>();
  if (apiKeys.isError && !apiKeys.data)
    return <LoadError error={apiKeys.error} onRetry={() => void apiKeys.refetch()} />;
  if (!apiKeys.data) return <Loading />;
  const list = apiKeys.data.data.filter((k) => k.mode === mode && !k.revokedAt);
  return (
    <LastData query={apiKeys}>
      <section>
        <PageTitle lead={mode === 'test' ? t('developers.leadTest') : t('developers.leadLive')}>
          {t('developers.title')}
        </PageTitle>
        <div className="toolbar">
          <h2>{mode === 'test' ? t('developers.testKeys') : t('developers.liveKeys')}</h2>
          {canWrite && !creating && (
            <Button onClick={() => setCreating(true)}>{t('developers.new')}</Button>
          )}
        </div>
        {creating && <CreateKey orgId={orgId} mode={mode} onDone={() => setCreating(false)} />}
        {list.length === 0 ? (
          <p className="empty">
            {mode === 'test' ? t('developers.emptyTest') : t('developers.emptyLive')}
          </p>
        ) : (
          <ResourceTable
            rows={list}
            rowKey={(k) => k.id}
            columns={[
              { header: t('fields.keyName'), cell: (k) => k.name },
              { header: t('developers.prefix'), cell: (k) => <code>{k.prefix}…</code> },
              { header: t('fields.scopes'), cell: (k) => k.scopes.join(', ') },
              {
                header: t('developers.lastUsed'),
                cell: (k) =>
                  k.lastUsedAt ? (
                    <time dateTime={k.lastUsedAt} title={formatDate(k.lastUsedAt, true)}>
                      {formatRelative(k.lastUsedAt)}
                    </time>
                  ) : (
                    t('developers.neverUsed')
                  ),
              },
              { header: t('developers.created'), cell: (k) => formatDate(k.createdAt) },
            ]}
            actions={
              canWrite &&
              ((k) => (
                <RowAction
                  label={t('developers.revoke')}
                  named={t('developers.revokeNamed', { name: k.name })}
                  onClick={() => setRevoking(k)}
                />
              ))
            }
          />
        )}
        {revoking && (
          <RevokeKey orgId={orgId} apiKey={revoking} onClose={() => setRevoking(undefined)} />
        )}
        <h2 className="section-title">{t('localMode.title')}</h2>
        <p className="hint">{t('localMode.lead')}</p>
        <SigningKeys orgId={orgId} />
        {org.data && <AllowedOrigins org={org.data} />}
      </section>
    </LastData>
  );
}

function CreateKey({ orgId, mode, onDone }: { orgId: string; mode: Mode; onDone: () => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState<{ name: string; mode: Mode; scopes: Scope[] }>({
    name: '',
    mode,
    scopes: DEFAULT_SCOPES,
  });
  const create = useMutation({
    mutationFn: () =>
      data(api.POST('/orgs/{orgId}/api-keys', { params: { path: { orgId } }, body: form })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.apiKeys(orgId) }),
  });
  if (create.isSuccess) {
    return (
      <div className="panel">
        <h3>{t('developers.createdTitle', { name: create.data.apiKey.name })}</h3>
        <SecretPanel label={t('developers.secretLabel')} value={create.data.key} />
        <Button variant="secondary" onClick={onDone}>
          {t('common.done')}
        </Button>
      </div>
    );
  }
  const toggle = (scope: Scope, on: boolean) =>
    setForm({
      ...form,
      scopes: on
        ? SCOPES.filter((s) => s === scope || form.scopes.includes(s))
        : form.scopes.filter((s) => s !== scope),
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
      <h3>{t('developers.new')}</h3>
      <Field
        label={t('fields.keyName')}
        hint={t('developers.nameHint')}
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.target.value })}
        error={fieldError(create.error, 'name')}
      />
      <fieldset>
        <legend>{t('fields.mode')}</legend>
        {(['live', 'test'] as const).map((m) => (
          <label key={m} className="radio">
            <input
              type="radio"
              name="mode"
              value={m}
              checked={form.mode === m}
              onChange={() => setForm({ ...form, mode: m })}
            />
            {t(`developers.mode.${m}`)}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t('fields.scopes')}</legend>
        {SCOPES.map((s) => (
          <Checkbox
            key={s}
            label={s}
            hint={t(`scopes.${s.replace(':', '_')}`)}
            checked={form.scopes.includes(s)}
            onChange={(e) => toggle(s, e.target.checked)}
          />
        ))}
        {fieldError(create.error, 'scopes') && (
          <p className="field-error" role="alert">
            {fieldError(create.error, 'scopes')}
          </p>
        )}
      </fieldset>
      <FormError error={create.error} />
      <div className="actions">
        <Button variant="secondary" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" busy={create.isPending}>
          {t('developers.create')}
        </Button>
      </div>
    </form>
  );
}

function RevokeKey({
  orgId,
  apiKey,
  onClose,
}: {
  orgId: string;
  apiKey: ApiKey;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ConfirmDialog
      title={t('developers.revokeTitle', { name: apiKey.name })}
      message={t('developers.revokeConfirm', { name: apiKey.name })}
      action={t('developers.revoke')}
      run={() =>
        data(
          api.DELETE('/orgs/{orgId}/api-keys/{id}', { params: { path: { orgId, id: apiKey.id } } }),
        )
      }
      onDone={() => queryClient.invalidateQueries({ queryKey: keys.apiKeys(orgId) })}
      onClose={onClose}
    />
  );
}
