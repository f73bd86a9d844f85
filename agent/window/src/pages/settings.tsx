import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../api';
import { keys, useAction, useAgentState, useSettings } from '../data';
import { Button, Checkbox, Field, FormError, LoadError, Loading, PageTitle } from '../ui';
import type { WindowSettings } from '../../../src/window/window-types';

export function SettingsPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  if (settings.isPending) return <Loading />;
  if (settings.isError)
    return <LoadError error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <>
      <PageTitle>{t('settings.title')}</PageTitle>
      <SettingsForm settings={settings.data} />
    </>
  );
}

/** What the desktop app's preload exposes (agent/electron/preload.ts); absent in a browser. */
const desktop = (
  window as unknown as { printwireDesktop?: { openDataFolder(): Promise<string | null> } }
).printwireDesktop;

function SettingsForm({ settings }: { settings: WindowSettings }) {
  const { t } = useTranslation();
  const state = useAgentState();
  const activated = Boolean(state.data?.deviceId);
  const [cloudUrl, setCloudUrl] = useState(settings.cloudUrl ?? '');
  const [port, setPort] = useState(settings.localPort === null ? '' : String(settings.localPort));
  const [startAtLogin, setStartAtLogin] = useState(settings.startAtLogin);
  const [muted, setMuted] = useState(settings.notificationsMuted);
  const save = useAction(
    (body: Record<string, unknown>) => api.patch('settings', body),
    [keys.settings, keys.state],
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const portNumber = port.trim() === '' ? null : Number(port);
    save.mutate({
      ...(!activated && cloudUrl.trim() ? { cloudUrl: cloudUrl.trim() } : {}),
      localPort: Number.isInteger(portNumber) || portNumber === null ? portNumber : port,
      startAtLogin,
      notificationsMuted: muted,
    });
  };
  const fieldError = (field: string) =>
    save.error instanceof ApiError ? save.error.field(field) : undefined;
  return (
    <form onSubmit={submit} noValidate>
      <Field
        label={t('settings.cloudUrl')}
        hint={activated ? t('settings.cloudUrlActivated') : t('settings.cloudUrlHint')}
        type="url"
        value={cloudUrl}
        readOnly={activated}
        onChange={(e) => setCloudUrl(e.target.value)}
        error={fieldError('cloudUrl')}
      />
      <Field
        label={t('settings.port')}
        hint={t('settings.portHint', {
          port: settings.localServerPort ?? t('settings.portOff'),
        })}
        inputMode="numeric"
        value={port}
        onChange={(e) => setPort(e.target.value)}
        error={fieldError('localPort')}
      />
      <Checkbox
        label={t('settings.startAtLogin')}
        hint={t('settings.startAtLoginHint')}
        checked={startAtLogin}
        onChange={(e) => setStartAtLogin(e.target.checked)}
      />
      <Checkbox
        label={t('settings.mute')}
        hint={t('settings.muteHint')}
        checked={muted}
        onChange={(e) => setMuted(e.target.checked)}
      />
      <Field
        label={t('settings.dataDir')}
        hint={t('settings.dataDirHint')}
        value={settings.dataDir}
        readOnly
      />
      {desktop && (
        <p>
          <Button variant="secondary" onClick={() => void desktop.openDataFolder()}>
            {t('settings.openDataDir')}
          </Button>
        </p>
      )}
      {!fieldError('cloudUrl') && !fieldError('localPort') && <FormError error={save.error} />}
      {save.isSuccess && (
        <p className="notice success" role="status">
          {t('settings.saved')}
        </p>
      )}
      <Button type="submit" busy={save.isPending}>
        {t('settings.save')}
      </Button>
    </form>
  );
}
