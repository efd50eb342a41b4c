import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ROUTES } from '#functions/routes';

/**
 * One list of the routes that need a recent sign-in: the route table's `recentSignIn`
 * (functions/routes.ts), which the wrapper enforces. docs/dashboard-api.md's section says the same,
 * and a handler that asks for it for some changes is marked so in the table.
 */
const doc = readFileSync(new URL('../../docs/dashboard-api.md', import.meta.url), 'utf8');

function documented(): string[] {
  const section = doc.split('\n## Routes that need a recent sign-in\n')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^- `(GET|POST|PUT|DELETE) (\S+)`: (always|some changes)\./gm)].map(([, method, path, when]) => `${method} ${path} ${when === 'always' ? 'always' : 'someChanges'}`);
}

describe('the routes that need a recent sign-in', () => {
  it('are listed in docs/dashboard-api.md exactly as the route table marks them', () => {
    const marked = DASHBOARD_ROUTES.filter((route) => route.recentSignIn).map((route) => `${route.method} ${route.path} ${route.recentSignIn}`);
    expect(marked.length).toBeGreaterThan(10);
    expect(documented().sort()).toEqual(marked.sort());
  });

  it('marks `someChanges` on exactly the handlers that ask for a recent sign-in themselves', () => {
    const asking = DASHBOARD_ROUTES.filter((route) => /\brequireRecentSignIn\b/.test(readFileSync(new URL(`../../functions/handlers/${route.handler}.ts`, import.meta.url), 'utf8')));
    expect(asking.map((route) => route.handler).sort()).toEqual(DASHBOARD_ROUTES.filter((route) => route.recentSignIn === 'someChanges').map((route) => route.handler).sort());
  });
});
