/**
 * The account: who is logged in, the name and language they change, and two-factor (setup with the QR code drawn in the
 * page from the otpauth URL, the recovery codes shown once; turning it off with a code).
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../api/client';
import { LANGUAGES, formatDate, setLanguage, type Language } from '../i18n';
import { updateUser, useSession, type User } from '../session';
import { Button, Field, FormError, PageTitle, SecretPanel, SelectField, fieldError } from '../ui';

export function Account() {
  const { t } = useTranslation();
  const session = useSession();
  if (session.status !== 'signed-in') return null;
  const user = session.user;
  return (
    <section className="narrow">
      <PageTitle>{t('account.title')}</PageTitle>
      <dl className="facts">
        <dt>{t('fields.email')}</dt>
        <dd>{user.email}</dd>
        <dt>{t('account.since')}</dt>
        <dd>{formatDate(user.createdAt)}</dd>
      </dl>
      <Profile user={user} />
      <h2 id="two-factor">{t('twoFactor.sectionTitle')}</h2>
      {user.twoFactorEnabled ? <DisableTwoFactor /> : <SetUpTwoFactor />}
    </section>
  );
}

/** The name and the language (PATCH /auth/me); the saved language becomes the interface's. */
function Profile({ user }: { user: User }) {
  const { t } = useTranslation();
  const [form, setForm] = useState({ name: user.name, locale: user.locale as Language });
  const save = useMutation({
    mutationFn: () => data(api.PATCH('/auth/me', { body: { ...form, name: form.name.trim() } })),
    onSuccess: async (saved) => {
      await setLanguage(saved.locale as Language);
      updateUser(saved);
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
      noValidate
    >
      <Field
        label={t('fields.name')}
        autoComplete="name"
        value={form.name}
        onChange={(e) => setForm({ ...form, name: e.target.value })}
        error={fieldError(save.error, 'name')}
      />
      <SelectField
        label={t('account.language')}
        hint={t('account.languageHint')}
        value={form.locale}
        onChange={(e) => setForm({ ...form, locale: e.target.value as Language })}
        error={fieldError(save.error, 'locale')}
      >
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.name}
          </option>
        ))}
      </SelectField>
      <FormError error={save.error} />
      {save.isSuccess && (
        <p className="notice success" role="status">
          {t('account.saved')}
        </p>
      )}
      <Button type="submit" busy={save.isPending}>
        {t('account.save')}
      </Button>
    </form>
  );
}

/** Draws the otpauth URL as a QR code on a canvas (the qrcode library, loaded on this page only). */
function QrCode({ text, label }: { text: string; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    void import('qrcode').then((qr) => {
      if (canvas.current) void qr.toCanvas(canvas.current, text, { width: 200, margin: 2 });
    });
  }, [text]);
  return <canvas ref={canvas} role="img" aria-label={label} width={200} height={200} />;
}

function SetUpTwoFactor() {
  const { t } = useTranslation();
  const session = useSession();
  const [code, setCode] = useState('');
  const setup = useMutation({ mutationFn: () => data(api.POST('/auth/2fa/setup')) });
  const confirm = useMutation({
    mutationFn: () =>
      data(
        api.POST('/auth/2fa/confirm', {
          body: { setupToken: setup.data?.setupToken ?? '', code: code.trim() },
        }),
      ),
  });
  if (confirm.isSuccess) {
    return (
      <div className="panel">
        <p className="notice success" role="status">
          {t('twoFactor.enabled')}
        </p>
        <SecretPanel
          label={t('twoFactor.recoveryCodes')}
          value={confirm.data.recoveryCodes.join('\n')}
          downloadName="printwire-recovery-codes.txt"
        />
        <p>{t('twoFactor.recoveryHint')}</p>
        <Button
          onClick={() => {
            if (session.status === 'signed-in')
              updateUser({ ...session.user, twoFactorEnabled: true });
          }}
        >
          {t('twoFactor.savedCodes')}
        </Button>
      </div>
    );
  }
  if (!setup.data) {
    return (
      <div>
        <p>{t('twoFactor.offLead')}</p>
        <FormError error={setup.error} codes={{ CONFLICT: t('twoFactor.alreadyOn') }} />
        <Button busy={setup.isPending} onClick={() => setup.mutate()}>
          {t('twoFactor.setUp')}
        </Button>
      </div>
    );
  }
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        confirm.mutate();
      }}
      noValidate
    >
      <ol className="steps">
        <li>{t('twoFactor.step1')}</li>
        <li>
          {t('twoFactor.step2')}
          <div className="qr">
            <QrCode text={setup.data.otpauthUrl} label={t('twoFactor.qrLabel')} />
          </div>
          <p className="hint">{t('twoFactor.manual')}</p>
          <code className="secret-text" aria-label={t('twoFactor.secretLabel')}>
            {setup.data.secret}
          </code>
        </li>
        <li>
          <Field
            label={t('fields.code')}
            hint={t('twoFactor.step3')}
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={fieldError(confirm.error, 'code')}
          />
        </li>
      </ol>
      <FormError
        error={confirm.error}
        codes={{ UNAUTHORIZED: t('twoFactor.wrong'), CONFLICT: t('twoFactor.alreadyOn') }}
      />
      <Button type="submit" busy={confirm.isPending}>
        {t('twoFactor.confirm')}
      </Button>
    </form>
  );
}

function DisableTwoFactor() {
  const { t } = useTranslation();
  const session = useSession();
  const [code, setCode] = useState('');
  const disable = useMutation({
    mutationFn: () =>
      data(
        api.POST('/auth/2fa/disable', {
          body: /^\d{6}$/.test(code.trim()) ? { code: code.trim() } : { recoveryCode: code.trim() },
        }),
      ),
    onSuccess: () => {
      if (session.status === 'signed-in') updateUser({ ...session.user, twoFactorEnabled: false });
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        disable.mutate();
      }}
      noValidate
    >
      <p>
        <span className="badge on">{t('twoFactor.on')}</span> {t('twoFactor.onLead')}
      </p>
      <Field
        label={t('fields.codeOrRecovery')}
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={fieldError(disable.error, 'code') ?? fieldError(disable.error, 'recoveryCode')}
      />
      <FormError
        error={disable.error}
        codes={{ UNAUTHORIZED: t('twoFactor.wrong'), CONFLICT: t('twoFactor.alreadyOff') }}
      />
      <Button type="submit" variant="danger" busy={disable.isPending}>
        {t('twoFactor.disable')}
      </Button>
    </form>
  );
}
