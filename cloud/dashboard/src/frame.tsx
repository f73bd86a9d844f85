/**
 * The frame of the signed-in pages (../../shared/DESIGN.md "The frame"): the left navigation (a
 * menu button on a phone), and on top the organization switcher, the test/live switch with its
 * "Test data" band, the language, and the user's menu.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Link,
  NavLink,
  Outlet,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient, useOrgs } from './data';
import { LanguageSwitcher } from './language';
import { useLive, type LiveStatus } from './live';
import { logout, onSignOut, useSession } from './session';

export type Mode = 'live' | 'test';

/** The test/live switch lives in the URL (`?mode=test`), so a pasted link shows the same data. */
export function useMode(): [Mode, (mode: Mode) => void] {
  const [params, setParams] = useSearchParams();
  const mode: Mode = params.get('mode') === 'test' ? 'test' : 'live';
  return [
    mode,
    (next) =>
      setParams(
        (p) => {
          if (next === 'test') p.set('mode', 'test');
          else p.delete('mode');
          return p;
        },
        { replace: true },
      ),
  ];
}

function OrgSwitcher({ orgId }: { orgId: string | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const orgs = useOrgs();
  const list = orgs.data?.data ?? [];
  const id = useId();
  return (
    <div className="org-switcher">
      <label htmlFor={id}>{t('frame.organization')}</label>
      <select
        id={id}
        value={orgId ?? ''}
        onChange={(e) =>
          void navigate(e.target.value === 'new' ? '/new-organization' : `/o/${e.target.value}`)
        }
      >
        {!orgId && <option value="">{t('frame.chooseOrganization')}</option>}
        {list.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
        <option value="new">{t('frame.newOrganization')}</option>
      </select>
    </div>
  );
}

function ModeSwitch() {
  const { t } = useTranslation();
  const [mode, setMode] = useMode();
  // The URL changes in a transition; until it has, the switch shows what was just chosen instead
  // of flicking back to the old mode under the person's finger.
  const [shown, setShown] = useState(mode);
  useEffect(() => setShown(mode), [mode]);
  return (
    <label className="mode-switch">
      <input
        type="checkbox"
        role="switch"
        checked={shown === 'test'}
        onChange={(e) => {
          const next = e.target.checked ? 'test' : 'live';
          setShown(next);
          setMode(next);
        }}
      />
      <span>{t('frame.testMode')}</span>
    </label>
  );
}

function UserMenu() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const name = session.status === 'signed-in' ? session.user.name : '';
  return (
    <details className="user-menu">
      <summary aria-label={t('frame.userMenu', { name })}>{name}</summary>
      <div className="menu">
        <Link to="/account">{t('frame.account')}</Link>
        <Link to="/account#two-factor">{t('frame.twoFactor')}</Link>
        <button
          type="button"
          className="link"
          onClick={() => void logout().then(() => navigate('/login'))}
        >
          {t('frame.logout')}
        </button>
      </div>
    </details>
  );
}

function OrgNav({ orgId, onNavigate }: { orgId: string; onNavigate: () => void }) {
  const { t } = useTranslation();
  const { search } = useLocation();
  const keep = new URLSearchParams(search).get('mode') === 'test' ? '?mode=test' : '';
  const items: [string, string][] = [
    ['', t('nav.overview')],
    ['jobs', t('nav.jobs')],
    ['printers', t('nav.printers')],
    ['printer-groups', t('nav.groups')],
    ['devices', t('nav.devices')],
    ['templates', t('nav.templates')],
    ['webhooks', t('nav.webhooks')],
    ['developers', t('nav.developers')],
    ['members', t('nav.members')],
    ['settings', t('nav.settings')],
    ['billing', t('nav.billing')],
  ];
  return (
    <ul>
      {items.map(([path, label]) => (
        <li key={path}>
          <NavLink
            end={path === ''}
            to={`/o/${orgId}${path ? `/${path}` : ''}${keep}`}
            onClick={onNavigate}
          >
            {label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** The live channel's state in a word and a dot (never by colour alone). */
function LiveMark({ status }: { status: LiveStatus }) {
  const { t } = useTranslation();
  if (status === 'off') return null;
  return (
    <span
      className={`live-mark live-${status}`}
      role="status"
      title={status === 'live' ? t('live.liveHint') : t('live.reconnectingHint')}
    >
      <svg aria-hidden="true" width="10" height="10" viewBox="0 0 10 10">
        {status === 'live' ? (
          <circle cx="5" cy="5" r="4" />
        ) : (
          <circle cx="5" cy="5" r="3.5" fill="none" strokeWidth="1.5" />
        )}
      </svg>
      {status === 'live'
        ? t('live.live')
        : status === 'connecting'
          ? t('live.connecting')
          : t('live.reconnecting')}
    </span>
  );
}

/** The organization last shown: the account page keeps it in the switcher and the navigation. */
let lastOrgId: string | undefined;
onSignOut(() => (lastOrgId = undefined));

export function Frame({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const params = useParams();
  const orgs = useOrgs();
  if (params.orgId) lastOrgId = params.orgId;
  // A page of no organization (the account) shows the last one, else the first.
  const orgId = params.orgId ?? lastOrgId ?? orgs.data?.data[0]?.id;
  const [mode] = useMode();
  const live = useLive(params.orgId, mode);
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
    <div className={`frame ${menuOpen ? 'menu-open' : ''}`}>
      <a className="skip" href="#main">
        {t('frame.skip')}
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {t('frame.menu')}
        </button>
        <Link to="/" className="brand">
          Printwire
        </Link>
        <OrgSwitcher orgId={orgId} />
        {params.orgId && <ModeSwitch />}
        {params.orgId && <LiveMark status={live} />}
        <LanguageSwitcher />
        <UserMenu />
      </header>
      {params.orgId && mode === 'test' && (
        <div className="test-band" role="status">
          {t('frame.testBand')}
        </div>
      )}
      <div className="body">
        <nav id="nav" aria-label={t('frame.navigation')}>
          {orgId && <OrgNav orgId={orgId} onNavigate={() => setMenuOpen(false)} />}
          <ul>
            <li>
              <NavLink to="/account">{t('frame.account')}</NavLink>
            </li>
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {children ?? <Outlet />}
        </main>
      </div>
    </div>
  );
}

/** The frame with the query cache every signed-in page reads (the login page loads neither). */
export function SignedInFrame() {
  return (
    <QueryClientProvider client={queryClient}>
      <Frame />
    </QueryClientProvider>
  );
}
