import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../api';
import { keys, useAction, useAgentState } from '../data';
import { Button, Field, FormError, LoadError, Loading, PageTitle } from '../ui';

export function ActivationPage() {
  const { t } = useTranslation();
  const state = useAgentState();
  const [code, setCode] = useState('');
  const [cloudUrl, setCloudUrl] = useState<string | null>(null);
  const [name, setName] = useState('');
  const activate = useAction(
    (body: { code: string; cloudUrl?: string; name?: string }) => api.post('activate', body),
    [keys.state, keys.settings],
  );
  if (state.isPending) return <Loading />;
  if (state.isError) return <LoadError error={state.error} onRetry={() => void state.refetch()} />;
  const s = state.data;
  if (s.deviceId) {
    return (
      <>
        <PageTitle>{t('activation.title')}</PageTitle>
        <p>
          {s.organizationName
            ? t('activation.activatedFor', {
                device: s.deviceName ?? s.deviceId,
                organization: s.organizationName,
              })
            : t('activation.activated', { device: s.deviceName ?? s.deviceId })}
        </p>
        <dl className="facts">
          <dt>{t('activation.deviceName')}</dt>
          <dd>{s.deviceName ?? '—'}</dd>
          <dt>{t('activation.organization')}</dt>
          <dd>{s.organizationName ?? s.organizationId}</dd>
          <dt>{t('activation.deviceId')}</dt>
          <dd className="mono">{s.deviceId}</dd>
          <dt>{t('activation.cloud')}</dt>
          <dd className="mono">{s.cloudUrl}</dd>
          <dt>{t('activation.version')}</dt>
          <dd>{s.agentVersion}</dd>
        </dl>
      </>
    );
  }
  const url = cloudUrl ?? s.cloudUrl ?? '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    activate.mutate({
      code,
      ...(url ? { cloudUrl: url } : {}),
      ...(name.trim() ? { name: name.trim() } : {}),
    });
  };
  const fieldError = (field: string) =>
    activate.error instanceof ApiError ? activate.error.field(field) : undefined;
  return (
    <>
      <PageTitle>{t('activation.title')}</PageTitle>
      <p>{t('activation.lead')}</p>
      <form onSubmit={submit} noValidate>
        <Field
          label={t('activation.code')}
          hint={t('activation.codeHint')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          required
          error={fieldError('code')}
        />
        <Field
          label={t('activation.cloudUrl')}
          hint={t('activation.cloudUrlHint')}
          type="url"
          value={url}
          onChange={(e) => setCloudUrl(e.target.value)}
          error={fieldError('cloudUrl')}
        />
        <Field
          label={t('activation.deviceName')}
          hint={t('activation.deviceNameHint')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={100}
        />
        {!fieldError('code') && !fieldError('cloudUrl') && <FormError error={activate.error} />}
        <Button type="submit" busy={activate.isPending} busyLabel={t('activation.activating')}>
          {t('activation.submit')}
        </Button>
      </form>
    </>
  );
}
