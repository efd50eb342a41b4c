import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { whenSignedOut } from './api/client.ts';
import { sessionApi } from './api/session.ts';
import type { Me } from './api/types.ts';
import { ConfirmIdentityHost } from './components/confirm-identity.tsx';
import { Link } from './components/ui.tsx';
import { navigate, useRoute } from './router.ts';
import { NAVIGATION, publicRoute, signedInRoute } from './routes.tsx';

/** The app's shell: a public page alone, or a signed-in one under the header and beside the navigation (./routes.tsx). */
function App() {
  const route = useRoute();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const loadMe = useCallback(async () => {
    try {
      setMe((await sessionApi.me()).data);
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

  const open = publicRoute(route);
  if (open) {
    return (
      <main class="auth" id="main">
        {open.page(signedIn)}
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
    await sessionApi.signOut().catch(() => undefined);
    setMe(null);
    navigate('/sign-in', true);
  };
  const { entry, subpath } = signedInRoute(route);
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
              <li key={item.path}>
                <Link to={item.path} current={item === entry}>
                  {item.navigation}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {entry.page({ company, email: me.email, route, subpath })}
        </main>
      </div>
      <ConfirmIdentityHost />
    </>
  );
}

render(<App />, document.getElementById('app')!);
