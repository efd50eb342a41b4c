import { useEffect, useState } from 'preact/hooks';

/** Path routing under /dashboard/ with the History API; the server (and CloudFront) answer every
 * app path with index.html. */
export const BASE_PATH = '/dashboard';

const listeners = new Set<() => void>();

export function currentRoute(): string {
  const path = location.pathname.startsWith(BASE_PATH) ? location.pathname.slice(BASE_PATH.length) : '/';
  return path === '' ? '/' : path;
}

export function navigate(route: string, replace = false): void {
  const url = BASE_PATH + route;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

export function useRoute(): string {
  const [route, setRoute] = useState(currentRoute());
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
}

/** Links that route in the page (left clicks only; modified clicks open a tab as usual). */
export function onLinkClick(event: MouseEvent, route: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(route);
}

/**
 * A click anywhere in a row opens what its link opens (../shared/dashboard.md, Activity), unless
 * it was meant for something inside the row (its link, a button, a field) or ended a drag that
 * selected text to copy. Modified clicks are left to the row's link, which opens a tab.
 */
export function onRowClick(event: MouseEvent, route: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if ((event.target as Element).closest('a, button, input, select, textarea, label, summary, [role="button"]')) return;
  if (getSelection()?.isCollapsed === false) return;
  navigate(route);
}
