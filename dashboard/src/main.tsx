import { render } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { whenSignedOut } from './api/client.ts';
import { sessionApi } from './api/session.ts';
import type { Me } from './api/types.ts';
import { ConfirmIdentityHost } from './components/confirm-identity.tsx';
import { Link } from './components/ui.tsx';
import { navigate, useRoute } from './router.ts';
import { NAVIGATION, publicRoute, signedInRoute } from './routes.tsx';

/** The company the person last chose, by id, in this browser: written only on a choice (the header's
 * `Company`, an accepted invitation), so someone of one company leaves nothing in storage. */
const CHOSEN_COMPANY = 'cambio.company';
function rememberedCompany(): string | null {
  try {
    return localStorage.getItem(CHOSEN_COMPANY);
  } catch {
    return null;
  }
}
function rememberCompany(id: string): void {
  try {
    localStorage.setItem(CHOSEN_COMPANY, id);
  } catch {
    // Storage refused (a private window's quota): the choice lasts until the page reloads.
  }
}

/**
 * After the app moves to another page, focus goes to that page's heading (its `h1`, made focusable
 * by script alone), so a screen reader says where the person now is and the keyboard goes on from
 * there: a full page load would start there, and otherwise focus falls to <body> with the link,
 * row or dialog that moved it. A page whose heading waits for its data gets focus once it shows.
 * Focus already inside the new page stays where it is (the Activity tab chosen).
 */
function useFocusOnNavigation(route: string): void {
  const shown = useRef(route);
  useEffect(() => {
    if (shown.current === route) return;
    shown.current = route;
    const focusHeading = (): boolean => {
      const main = document.getElementById('main');
      if (main?.contains(document.activeElement)) return true;
      const heading = main?.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      heading.tabIndex = -1;
      heading.focus();
      return true;
    };
    if (focusHeading()) return;
    // Until the heading shows, or the person moves focus themselves.
    const stop = () => {
      waiting.disconnect();
      removeEventListener('focusin', stop);
    };
    const waiting = new MutationObserver(() => focusHeading() && stop());
    waiting.observe(document.body, { childList: true, subtree: true });
    addEventListener('focusin', stop);
    return stop;
  }, [route]);
}

/** The app's shell: a public page alone, or a signed-in one under the header and beside the navigation (./routes.tsx). */
function App() {
  const route = useRoute();
  useFocusOnNavigation(route);
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [chosen, setChosen] = useState(rememberedCompany);
  const loadMe = useCallback(async () => {
    try {
      const loaded = (await sessionApi.me()).data;
      setMe(loaded);
      return loaded;
    } catch {
      setMe(null);
      return null;
    }
  }, []);
  const choose = (id: string) => {
    rememberCompany(id);
    setChosen(id);
  };
  useEffect(() => {
    whenSignedOut(() => setMe(null));
    void loadMe();
  }, [loadMe]);

  /** `joined`: the company whose invitation was accepted, which opens. */
  const signedIn = async (joined?: string) => {
    await loadMe();
    if (joined) choose(joined);
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
  // The remembered company while the person still belongs to it; else their first.
  const company = me.companies.find((c) => c.id === chosen) ?? me.companies[0]!;
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
        {me.companies.length > 1 ? (
          <span class="company">
            <label for="company-choice">Company</label>{' '}
            <select
              id="company-choice"
              value={company.id}
              onChange={(event) => {
                choose((event.currentTarget as HTMLSelectElement).value);
                navigate('/');
              }}
            >
              {me.companies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </span>
        ) : (
          <span class="company">{company.name}</span>
        )}
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
        <main id="main" tabIndex={-1} key={company.id}>
          {entry.page({ company, email: me.email, route, subpath })}
        </main>
      </div>
      <ConfirmIdentityHost />
    </>
  );
}

render(<App />, document.getElementById('app')!);
