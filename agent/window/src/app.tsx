import { useEffect, useId, useRef, useState } from 'react';
import { QueryClient, QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { BrowserRouter, Navigate, NavLink, Route, Routes } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, listen, windowKey } from './api';
import { keys, useAction, useAgentState, usePrompts } from './data';
import { Button, FormError, LanguageSwitcher, LoadError, Loading, ToneIcon, type Tone } from './ui';
import { PrintersPage } from './pages/printers';
import { QueuePage } from './pages/queue';
import { ActivationPage } from './pages/activation';
import { SettingsPage } from './pages/settings';
import { LogsPage } from './pages/logs';
import type { WindowPrompt, WindowState } from '../../src/window/window-types';

const client = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true, staleTime: 2000 } },
});

export function App() {
  return (
    <QueryClientProvider client={client}>
      <BrowserRouter>{windowKey ? <Frame /> : <NoKey />}</BrowserRouter>
    </QueryClientProvider>
  );
}

/** Opened without the key: say how to open it properly. */
function NoKey() {
  const { t } = useTranslation();
  return (
    <main id="main">
      <h1>{t('noKey.title')}</h1>
      <p>{t('noKey.body')}</p>
      <p>
        <code>printwire-agent window</code>
      </p>
    </main>
  );
}

const STATE_TONE: Record<WindowState['tray'], Tone> = {
  connected: 'ok',
  paused: 'warn',
  attention: 'warn',
  offline: 'bad',
  'not-activated': 'bad',
};

/** The header line: the agent's state in words, Pause/Resume, the language. */
function Header({ state, live }: { state: WindowState | undefined; live: boolean }) {
  const { t } = useTranslation();
  const pause = useAction(
    () => api.post(state?.paused ? 'resume' : 'pause'),
    [keys.state, keys.jobs],
  );
  const first = state?.attention[0];
  const words = !state
    ? t('state.loading')
    : state.tray === 'attention' && first
      ? [
          t('state.attention', { name: first.name, status: t(`printerStatus.${first.status}`) }),
          state.attention.length > 1 ? t('state.more', { count: state.attention.length - 1 }) : '',
        ].join(' ')
      : t(`state.${state.tray}`);
  return (
    <header className="topbar">
      <span className="brand">{t('brand')}</span>
      <p className={`state ${state?.tray ?? ''}`} role="status" aria-live="polite">
        {state && <ToneIcon tone={STATE_TONE[state.tray]} />}
        <span>{words}</span>
        {!live && <span className="hint">({t('state.reconnecting')})</span>}
      </p>
      {state && (
        <Button
          variant={state.paused ? 'primary' : 'secondary'}
          busy={pause.isPending}
          onClick={() => pause.mutate()}
        >
          {state.paused ? t('header.resume') : t('header.pause')}
        </Button>
      )}
      <LanguageSwitcher label={t('header.language')} />
      <FormError error={pause.error} />
    </header>
  );
}

function Frame() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const state = useAgentState();
  const [live, setLive] = useState(true);
  useEffect(
    () =>
      listen(
        (event, data) => {
          if (event === 'state') queryClient.setQueryData(keys.state, data as WindowState);
          else if (event === 'jobs') void queryClient.invalidateQueries({ queryKey: keys.jobs });
          else if (event === 'printers')
            void queryClient.invalidateQueries({ queryKey: keys.printers });
          else if (event === 'prompts')
            void queryClient.invalidateQueries({ queryKey: keys.prompts });
        },
        (up) => {
          setLive(up);
          if (up) void queryClient.invalidateQueries();
        },
      ),
    [queryClient],
  );
  const pages = [
    ['/printers', t('nav.printers')],
    ['/queue', t('nav.queue')],
    ['/activation', t('nav.activation')],
    ['/settings', t('nav.settings')],
    ['/logs', t('nav.logs')],
  ] as const;
  return (
    <>
      <a className="skip" href="#main">
        {t('nav.skip')}
      </a>
      <Header state={state.data} live={live} />
      <nav className="tabs" aria-label={t('nav.label')}>
        <ul>
          {pages.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to} className={({ isActive }) => (isActive ? 'active' : undefined)}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Routes>
          <Route
            path="/"
            element={
              state.data ? (
                <Navigate
                  to={state.data.cloud === 'not-activated' ? '/activation' : '/printers'}
                  replace
                />
              ) : state.isError ? (
                <LoadError error={state.error} onRetry={() => void state.refetch()} />
              ) : (
                <Loading />
              )
            }
          />
          <Route path="/printers" element={<PrintersPage />} />
          <Route path="/queue" element={<QueuePage />} />
          <Route path="/activation" element={<ActivationPage />} />
          <Route path="/settings" element={<SettingsPage />} />
          <Route path="/logs" element={<LogsPage />} />
        </Routes>
      </main>
      <TrustPrompt enabled={state.data?.canAsk === true} />
    </>
  );
}

/** Local mode's question: a page of another site wants to print on this computer's printers. */
function TrustPrompt({ enabled }: { enabled: boolean }) {
  const prompts = usePrompts(enabled);
  const first = prompts.data?.[0];
  return first ? <PromptDialog key={first.id} prompt={first} /> : null;
}

function PromptDialog({ prompt }: { prompt: WindowPrompt }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const answer = useAction(
    (value: 'once' | 'always' | 'block') => api.post(`prompts/${prompt.id}`, { answer: value }),
    [keys.prompts],
  );
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-labelledby={titleId}
      onCancel={(e) => e.preventDefault()}
    >
      <h2 id={titleId}>{t('prompt.title')}</h2>
      <p className="origin">{prompt.origin}</p>
      <p>{t('prompt.body')}</p>
      <p className="hint">{t('prompt.hint')}</p>
      <FormError error={answer.error} />
      <div className="actions">
        <Button busy={answer.isPending} onClick={() => answer.mutate('once')}>
          {t('prompt.once')}
        </Button>
        <Button variant="secondary" busy={answer.isPending} onClick={() => answer.mutate('always')}>
          {t('prompt.always')}
        </Button>
        <Button variant="danger" busy={answer.isPending} onClick={() => answer.mutate('block')}>
          {t('prompt.block')}
        </Button>
      </div>
    </dialog>
  );
}
