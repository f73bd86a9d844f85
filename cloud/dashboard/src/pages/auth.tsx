/**
 * The signed-out pages: sign up, verify e-mail, log in, the two-factor challenge, forgot and
 * reset password. Each form posts to /auth and shows the API's message under the field it names.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, api, data } from '../api/client';
import { i18n } from '../i18n';
import { startSession, type IssuedSession } from '../session';
import { Button, Field, FormError, PageTitle, fieldError, useAction } from '../ui';

const submit = (fn: () => void) => (e: FormEvent) => {
  e.preventDefault();
  fn();
};

/** The page after login: `?next=` when it is one of ours, else the start. */
export function useNext(): string {
  const [params] = useSearchParams();
  const next = params.get('next') ?? '/';
  return next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

export function AuthCard({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="auth-card">
      <PageTitle lead={lead}>{title}</PageTitle>
      {children}
    </div>
  );
}

export function SignUp() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [form, setForm] = useState({ name: '', email: params.get('email') ?? '', password: '' });
  const signup = useAction(() =>
    data(
      api.POST('/auth/signup', {
        body: { ...form, locale: i18n.language as 'en' | 'fr' | 'ht' },
      }),
    ),
  );
  if (signup.isSuccess) {
    return (
      <AuthCard title={t('signup.checkMailTitle')}>
        <p>{t('signup.checkMail', { email: form.email })}</p>
        {signup.data?.mailDelivery === 'files' && <p>{t('signup.mailInFiles')}</p>}
        <ResendVerification email={form.email} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('signup.title')} lead={t('signup.lead')}>
      <form onSubmit={submit(() => signup.mutate())} noValidate>
        <Field
          label={t('fields.name')}
          autoComplete="name"
          value={form.name}
          required
          onChange={(e) => setForm({ ...form, name: e.target.value })}
          error={fieldError(signup.error, 'name')}
        />
        <Field
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          value={form.email}
          required
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          error={fieldError(signup.error, 'email')}
        />
        <Field
          label={t('fields.password')}
          type="password"
          autoComplete="new-password"
          hint={t('signup.passwordHint')}
          value={form.password}
          required
          onChange={(e) => setForm({ ...form, password: e.target.value })}
          error={fieldError(signup.error, 'password')}
        />
        <FormError error={signup.error} />
        <Button type="submit" busy={signup.isPending}>
          {t('signup.submit')}
        </Button>
      </form>
      <p className="switch-page">
        {t('signup.haveAccount')}{' '}
        <Link to={`/login${useLocation().search}`}>{t('login.submit')}</Link>
      </p>
    </AuthCard>
  );
}

function ResendVerification({ email }: { email: string }) {
  const { t } = useTranslation();
  const resend = useAction(() => data(api.POST('/auth/resend-verification', { body: { email } })));
  return (
    <div className="actions">
      <Button variant="secondary" busy={resend.isPending} onClick={() => resend.mutate()}>
        {t('signup.resend')}
      </Button>
      {resend.isSuccess && <span role="status">{t('signup.resent')}</span>}
      <FormError error={resend.error} />
    </div>
  );
}

export function VerifyEmail() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useAction(() => data(api.POST('/auth/verify-email', { body: { token } })));
  const started = useRef(false);
  useEffect(() => {
    // Once, even when React mounts twice: a token is single use.
    if (!started.current && token) {
      started.current = true;
      verify.mutate();
    }
  }, [token, verify]);
  if (!token || verify.isError) {
    return (
      <AuthCard title={t('verify.failedTitle')}>
        <p>{t('verify.failed')}</p>
        <p>
          <Link to="/login">{t('login.submit')}</Link>
        </p>
      </AuthCard>
    );
  }
  if (!verify.isSuccess) return <AuthCard title={t('verify.working')}>{null}</AuthCard>;
  return (
    <AuthCard title={t('verify.doneTitle')}>
      <p>{t('verify.done', { email: verify.data.email })}</p>
      <Link className="button primary" to="/login">
        {t('login.submit')}
      </Link>
    </AuthCard>
  );
}

type LoginAnswer = IssuedSession | { twoFactorRequired: true; challenge: string };

export function LogIn() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const next = useNext();
  const [form, setForm] = useState({ email: '', password: '' });
  const login = useAction(
    () => data(api.POST('/auth/login', { body: form })) as Promise<LoginAnswer>,
    {
      onSuccess: (answer) => {
        if ('twoFactorRequired' in answer) {
          void navigate(`/login/two-factor?next=${encodeURIComponent(next)}`, {
            state: { challenge: answer.challenge },
          });
        } else {
          startSession(answer); // SignedOutOnly (app.tsx) then goes on to `next`
        }
      },
    },
  );
  const unverified = login.error instanceof ApiError && login.error.code === 'EMAIL_NOT_VERIFIED';
  return (
    <AuthCard title={t('login.title')}>
      <form onSubmit={submit(() => login.mutate())} noValidate>
        <Field
          label={t('fields.email')}
          type="email"
          autoComplete="username"
          value={form.email}
          required
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          error={fieldError(login.error, 'email')}
        />
        <Field
          label={t('fields.password')}
          type="password"
          autoComplete="current-password"
          value={form.password}
          required
          onChange={(e) => setForm({ ...form, password: e.target.value })}
          error={fieldError(login.error, 'password')}
        />
        {unverified ? (
          <div className="notice" role="alert">
            <p>{t('login.unverified')}</p>
            <ResendVerification email={form.email} />
          </div>
        ) : login.error instanceof ApiError && login.error.status === 401 ? (
          <p className="form-error" role="alert">
            {t('login.wrong')}
          </p>
        ) : (
          <FormError error={login.error} />
        )}
        <Button type="submit" busy={login.isPending}>
          {t('login.submit')}
        </Button>
      </form>
      <p className="switch-page">
        <Link to="/forgot-password">{t('forgot.link')}</Link>
      </p>
      <p className="switch-page">
        {t('login.noAccount')}{' '}
        <Link to={`/signup${useLocation().search}`}>{t('signup.submit')}</Link>
      </p>
    </AuthCard>
  );
}

export function TwoFactorChallenge() {
  const { t } = useTranslation();
  const challenge = (useLocation().state as { challenge?: string } | null)?.challenge;
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const verify = useAction(
    () =>
      data(
        api.POST('/auth/login/2fa', {
          body: useRecovery
            ? { challenge: challenge ?? '', recoveryCode: code.trim() }
            : { challenge: challenge ?? '', code: code.trim() },
        }),
      ) as Promise<IssuedSession>,
    { onSuccess: (issued) => startSession(issued) },
  );
  if (!challenge) return <Navigate to="/login" replace />;
  const field = useRecovery ? 'recoveryCode' : 'code';
  return (
    <AuthCard
      title={t('twoFactor.title')}
      lead={useRecovery ? t('twoFactor.leadRecovery') : t('twoFactor.lead')}
    >
      <form onSubmit={submit(() => verify.mutate())} noValidate>
        <Field
          key={field}
          label={useRecovery ? t('fields.recoveryCode') : t('fields.code')}
          autoComplete="one-time-code"
          inputMode={useRecovery ? 'text' : 'numeric'}
          value={code}
          required
          autoFocus
          onChange={(e) => setCode(e.target.value)}
          error={fieldError(verify.error, field)}
        />
        {verify.error instanceof ApiError && verify.error.status === 401 ? (
          <p className="form-error" role="alert">
            {t('twoFactor.wrong')}
          </p>
        ) : (
          <FormError error={verify.error} />
        )}
        <Button type="submit" busy={verify.isPending}>
          {t('login.submit')}
        </Button>
      </form>
      <p className="switch-page">
        <button
          type="button"
          className="link"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setCode('');
          }}
        >
          {useRecovery ? t('twoFactor.useCode') : t('twoFactor.useRecovery')}
        </button>
      </p>
    </AuthCard>
  );
}

export function ForgotPassword() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const forgot = useAction(() => data(api.POST('/auth/forgot-password', { body: { email } })));
  if (forgot.isSuccess) {
    return (
      <AuthCard title={t('forgot.sentTitle')}>
        <p>{t('forgot.sent', { email })}</p>
        <Link to="/login">{t('login.submit')}</Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('forgot.title')} lead={t('forgot.lead')}>
      <form onSubmit={submit(() => forgot.mutate())} noValidate>
        <Field
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          value={email}
          required
          onChange={(e) => setEmail(e.target.value)}
          error={fieldError(forgot.error, 'email')}
        />
        <FormError error={forgot.error} />
        <Button type="submit" busy={forgot.isPending}>
          {t('forgot.submit')}
        </Button>
      </form>
      <p className="switch-page">
        <Link to="/login">{t('forgot.back')}</Link>
      </p>
    </AuthCard>
  );
}

export function ResetPassword() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const reset = useAction(() =>
    data(api.POST('/auth/reset-password', { body: { token, password } })),
  );
  if (reset.isSuccess) {
    return (
      <AuthCard title={t('reset.doneTitle')}>
        <p>{t('reset.done')}</p>
        <Link className="button primary" to="/login">
          {t('login.submit')}
        </Link>
      </AuthCard>
    );
  }
  const tokenError = fieldError(reset.error, 'token');
  return (
    <AuthCard title={t('reset.title')}>
      <form onSubmit={submit(() => reset.mutate())} noValidate>
        <Field
          label={t('fields.newPassword')}
          type="password"
          autoComplete="new-password"
          hint={t('signup.passwordHint')}
          value={password}
          required
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError(reset.error, 'password')}
        />
        {tokenError ? (
          <p className="form-error" role="alert">
            <Trans i18nKey="reset.badLink" components={{ a: <Link to="/forgot-password" /> }} />
          </p>
        ) : (
          <FormError error={reset.error} />
        )}
        <Button type="submit" busy={reset.isPending}>
          {t('reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
