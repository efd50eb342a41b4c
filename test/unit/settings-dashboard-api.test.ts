import { describe, expect, it } from 'vitest';
import { DASHBOARD_API, DASHBOARD_ROUTES } from '#functions/routes';
import { FUNCTION_SETTINGS, isFunctionName } from '#functions/settings/functions';

describe("the dashboard API's one Lambda", () => {
  // It runs every dashboard route's module (functions/handlers/dashboard/api.ts): each reads its own slice
  // at cold start, so a setting missing from the union would fail that route only in AWS.
  it.each(DASHBOARD_ROUTES.map((route) => [route.handler]))('holds every setting %s reads', (handler) => {
    expect(isFunctionName(handler), `${handler} has no entry in FUNCTION_SETTINGS`).toBe(true);
    const union = new Set<string>(FUNCTION_SETTINGS[DASHBOARD_API.handler]);
    const missing = FUNCTION_SETTINGS[handler as keyof typeof FUNCTION_SETTINGS].filter((name) => !union.has(name));
    expect(missing, `add these to FUNCTION_SETTINGS['${DASHBOARD_API.handler}']`).toEqual([]);
  });
});
