import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, whenSignedOut, type Me } from './api.ts';
import { navigate, useRoute } from './router.ts';
import { Link } from './ui.tsx';
import { ConfirmIdentityHost } from './confirm-identity.tsx';
import { SignIn, SignUp, AcceptInvitation, ForgotPassword, ResetPassword, VerifyEmail } from './pages/auth.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { IntegrationsPage } from './pages/integrations.tsx';
import { AuditLogPage } from './pages/audit-log.tsx';
import { ActivityPage } from './pages/activity/activity.tsx';
import { TeamPage } from './pages/team.tsx';
import { AccountPage } from './pages/account.tsx';
import { WebhooksPage } from './pages/webhooks/webhooks.tsx';

const NAVIGATION = [
  { route: '/', label: 'Overview' },
  { route: '/activity', label: 'Activity' },
  { route: '/webhooks', label: 'Webhooks' },
  { route: '/integrations', label: 'Integrations' },
  { route: '/team', label: 'Team' },
  { route: '/audit-log', label: 'Audit log' },
] as const;

const PUBLIC_ROUTES = new Set(['/sign-in', '/sign-up', '/accept-invitation', '/forgot-password', '/reset-password', '/verify-email']);

function App() {
  const route = useRoute();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const loadMe = useCallback(async () => {
    try {
      setMe((await api.me()).data);
    } catch {
      setMe(null);
    }
  }, []);
  useEffect(() => {
    whenSignedOut(() => setMe(null));
    void loadMe();
  }, [loadMe]);

  const signedIn = async () => {
    await loadMe();
    navigate('/', true);
  };

  if (PUBLIC_ROUTES.has(route)) {
    return (
      <main class="auth" id="main">
        {route === '/sign-up' && <SignUp />}
        {route === '/sign-in' && <SignIn onSignedIn={signedIn} />}
        {route === '/accept-invitation' && <AcceptInvitation onSignedIn={signedIn} />}
        {route === '/forgot-password' && <ForgotPassword />}
        {route === '/reset-password' && <ResetPassword />}
        {route === '/verify-email' && <VerifyEmail onSignedIn={signedIn} />}
      </main>
    );
  }
  if (me === undefined) return <p class="loading">Loading…</p>;
  if (me === null || me.companies.length === 0) {
    navigate('/sign-in', true);
    return null;
  }
  const company = me.companies[0]!;
  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    setMe(null);
    navigate('/sign-in', true);
  };
  // A page's own sub-paths (an Activity tab, a record's detail) keep its navigation link current.
  const current = NAVIGATION.find((item) => item.route === route || (item.route !== '/' && route.startsWith(`${item.route}/`))) ?? NAVIGATION[0];
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Cambio</span>
        <span class="company">{company.name}</span>
        <span class={`badge ${company.environment}`}>{company.environment === 'sandbox' ? 'Sandbox' : 'Production'}</span>
        <span class="who">
          {me.email} · {company.role}
        </span>
        <Link to="/account" current={route === '/account'}>
          Account
        </Link>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav aria-label="Dashboard">
          <ul>
            {NAVIGATION.map((item) => (
              <li key={item.route}>
                <Link to={item.route} current={route !== '/account' && item === current}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {route === '/account' && <AccountPage email={me.email} />}
          {route !== '/account' && current.route === '/' && <OverviewPage companyId={company.id} />}
          {current.route === '/integrations' && <IntegrationsPage companyId={company.id} role={company.role} />}
          {current.route === '/audit-log' && <AuditLogPage companyId={company.id} />}
          {current.route === '/activity' && <ActivityPage companyId={company.id} role={company.role} environment={company.environment} route={route} />}
          {current.route === '/team' && <TeamPage companyId={company.id} role={company.role} />}
          {current.route === '/webhooks' && <WebhooksPage companyId={company.id} role={company.role} route={route} />}
        </main>
      </div>
      <ConfirmIdentityHost />
    </>
  );
}

render(<App />, document.getElementById('app')!);
