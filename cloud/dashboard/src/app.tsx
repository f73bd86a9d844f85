/** The routes: the signed-out pages, and the signed-in ones inside the frame. */
import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, RouterProvider, createBrowserRouter, useLocation } from 'react-router';
import { LanguageSwitcher } from './language';
import {
  ForgotPassword,
  LogIn,
  ResetPassword,
  SignUp,
  TwoFactorChallenge,
  VerifyEmail,
  useNext,
} from './pages/auth';
import { refreshSession, restoreSession, useSession } from './session';
import { Button, Loading, PageTitle } from './ui';

/** The signed-out pages' layout: the brand, the language, and a card. */
function Public() {
  return (
    <div className="public">
      <header className="public-header">
        <span className="brand">Printwire</span>
        <LanguageSwitcher />
      </header>
      <main id="main">
        <Outlet />
      </main>
    </div>
  );
}

// The signed-in pages are chunks of their own, and so is the query cache they read (TanStack
// Query, set up in the frame): the login page loads neither (test/dashboard-weight.test.ts).
const Frame = lazy(() => import('./frame').then((m) => ({ default: m.SignedInFrame })));
const signedIn = (name: keyof typeof import('./signed-in')) => async () => ({
  Component: (await import('./signed-in'))[name],
});

/** Signed-in pages: to the login page (and back here after) when there is no session. */
function RequireSession() {
  const session = useSession();
  const { pathname, search } = useLocation();
  if (session.status === 'signed-out') {
    return <Navigate to={`/login?next=${encodeURIComponent(pathname + search)}`} replace />;
  }
  return (
    <Suspense fallback={<Loading />}>
      <Frame />
    </Suspense>
  );
}

/**
 * Login, two-factor and sign-up pages: a signed-in visitor goes on to `?next=` (where a login
 * lands: the one place that navigates after it).
 */
function SignedOutOnly({ children }: { children: ReactNode }) {
  const session = useSession();
  const next = useNext();
  return session.status === 'signed-in' ? <Navigate to={next} replace /> : children;
}

function NotFound() {
  const { t } = useTranslation();
  return <PageTitle lead={t('notFound.lead')}>{t('notFound.title')}</PageTitle>;
}

const router = createBrowserRouter([
  {
    element: <Public />,
    children: [
      {
        path: '/login',
        element: (
          <SignedOutOnly>
            <LogIn />
          </SignedOutOnly>
        ),
      },
      {
        path: '/login/two-factor',
        element: (
          <SignedOutOnly>
            <TwoFactorChallenge />
          </SignedOutOnly>
        ),
      },
      {
        path: '/signup',
        element: (
          <SignedOutOnly>
            <SignUp />
          </SignedOutOnly>
        ),
      },
      { path: '/verify-email', element: <VerifyEmail /> },
      { path: '/forgot-password', element: <ForgotPassword /> },
      { path: '/reset-password', element: <ResetPassword /> },
      {
        path: '/invitations/accept',
        lazy: async () => ({ Component: (await import('./pages/invitation')).AcceptInvitation }),
      },
    ],
  },
  {
    element: <RequireSession />,
    children: [
      { path: '/', lazy: signedIn('Start') },
      { path: '/new-organization', lazy: signedIn('NewOrganization') },
      { path: '/account', lazy: signedIn('Account') },
      { path: '/o/:orgId', lazy: signedIn('Overview') },
      { path: '/o/:orgId/jobs', lazy: signedIn('Jobs') },
      { path: '/o/:orgId/jobs/:jobId', lazy: signedIn('JobPage') },
      { path: '/o/:orgId/printers', lazy: signedIn('Printers') },
      { path: '/o/:orgId/printers/connect', lazy: signedIn('ConnectPrinter') },
      { path: '/o/:orgId/printer-groups', lazy: signedIn('PrinterGroups') },
      { path: '/o/:orgId/printer-groups/new', lazy: signedIn('GroupEditor') },
      { path: '/o/:orgId/printer-groups/:groupId', lazy: signedIn('GroupEditor') },
      { path: '/o/:orgId/devices', lazy: signedIn('Devices') },
      { path: '/o/:orgId/templates', lazy: signedIn('Templates') },
      { path: '/o/:orgId/templates/:templateId', lazy: signedIn('TemplateEditor') },
      { path: '/o/:orgId/webhooks', lazy: signedIn('Webhooks') },
      { path: '/o/:orgId/developers', lazy: signedIn('Developers') },
      { path: '/o/:orgId/members', lazy: signedIn('Members') },
      { path: '/o/:orgId/settings', lazy: signedIn('Settings') },
      { path: '/o/:orgId/billing', lazy: signedIn('Billing') },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

/** Restores the session from the refresh cookie before the first page, with Retry when offline. */
export function App() {
  const { t } = useTranslation();
  const session = useSession();
  const [failed, setFailed] = useState(false);
  const retry = () => {
    setFailed(false);
    refreshSession().catch(() => setFailed(true));
  };
  useEffect(() => {
    restoreSession().catch(() => setFailed(true));
  }, []);
  if (session.status === 'loading') {
    return failed ? (
      <div className="public">
        <main id="main" className="auth-card">
          <p role="alert">{t('errors.connection')}</p>
          <Button onClick={retry}>{t('common.retry')}</Button>
        </main>
      </div>
    ) : (
      <Loading />
    );
  }
  return <RouterProvider router={router} />;
}
