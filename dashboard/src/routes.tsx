import type { ComponentChildren } from 'preact';
import type { Me } from './api/types.ts';
import { AccountPage } from './account/account.tsx';
import { ActivityPage } from './activity/activity.tsx';
import { ActivityDetail } from './activity/detail.tsx';
import { activityRoute } from './activity/tabs.ts';
import { AuditLogPage } from './audit-log/audit-log.tsx';
import { AcceptInvitation, ForgotPassword, ResetPassword, SignIn, SignUp, VerifyEmail } from './auth/auth.tsx';
import { IntegrationsPage } from './integrations/integrations.tsx';
import { OverviewPage } from './overview/overview.tsx';
import { TeamPage } from './team/team.tsx';
import { EndpointPage } from './webhooks/endpoint.tsx';
import { WebhooksPage } from './webhooks/webhooks.tsx';

/** What a signed-in page is given. */
export interface PageContext {
  company: Me['companies'][number];
  email: string | null;
  route: string;
  /** The route below the page's own path (`abc` of `/webhooks/abc`); empty at the path itself. */
  subpath: string;
}

export interface PublicRoute {
  path: string;
  access: 'public';
  /** `onSignedIn(companyId)`: signed in by joining that company, which the shell then opens. */
  page: (onSignedIn: (joined?: string) => void) => ComponentChildren;
}

export interface SignedInRoute {
  path: string;
  access: 'signed-in';
  /** Its link's name in the navigation, which lists these in this order; none for a page reached otherwise. */
  navigation?: string;
  page: (context: PageContext) => ComponentChildren;
}

/**
 * Every page of the app, by its path under /dashboard (../shared/dashboard.md): the shell shows a
 * public one to anyone, the others to a signed-in person beside the navigation built from here.
 */
export const ROUTES: readonly (PublicRoute | SignedInRoute)[] = [
  { path: '/sign-up', access: 'public', page: () => <SignUp /> },
  { path: '/sign-in', access: 'public', page: (onSignedIn) => <SignIn onSignedIn={() => onSignedIn()} /> },
  { path: '/accept-invitation', access: 'public', page: (onSignedIn) => <AcceptInvitation onSignedIn={(companyId) => onSignedIn(companyId)} /> },
  { path: '/forgot-password', access: 'public', page: () => <ForgotPassword /> },
  { path: '/reset-password', access: 'public', page: () => <ResetPassword /> },
  { path: '/verify-email', access: 'public', page: (onSignedIn) => <VerifyEmail onSignedIn={() => onSignedIn()} /> },
  { path: '/', access: 'signed-in', navigation: 'Overview', page: ({ company }) => <OverviewPage companyId={company.id} /> },
  {
    path: '/activity',
    access: 'signed-in',
    navigation: 'Activity',
    page: ({ company, route }) => {
      const { kind, id } = activityRoute(route);
      if (id) return <ActivityDetail companyId={company.id} kind={kind} id={id} role={company.role} environment={company.environment} />;
      return <ActivityPage key={kind} companyId={company.id} kind={kind} role={company.role} />;
    },
  },
  {
    path: '/webhooks',
    access: 'signed-in',
    navigation: 'Webhooks',
    page: ({ company, subpath }) =>
      subpath ? <EndpointPage companyId={company.id} role={company.role} webhookId={subpath} /> : <WebhooksPage companyId={company.id} role={company.role} />,
  },
  { path: '/integrations', access: 'signed-in', navigation: 'Integrations', page: ({ company }) => <IntegrationsPage companyId={company.id} role={company.role} /> },
  { path: '/team', access: 'signed-in', navigation: 'Team', page: ({ company }) => <TeamPage companyId={company.id} role={company.role} /> },
  { path: '/audit-log', access: 'signed-in', navigation: 'Audit log', page: ({ company }) => <AuditLogPage companyId={company.id} /> },
  /** Reached from the header's `Account` link. */
  { path: '/account', access: 'signed-in', page: ({ email }) => <AccountPage email={email} /> },
];

const signedIn = ROUTES.filter((entry): entry is SignedInRoute => entry.access === 'signed-in');

export const NAVIGATION = signedIn.filter((entry): entry is SignedInRoute & { navigation: string } => entry.navigation !== undefined);

export const publicRoute = (route: string): PublicRoute | undefined =>
  ROUTES.find((entry): entry is PublicRoute => entry.access === 'public' && entry.path === route);

/**
 * The signed-in page of a route: the one at that path, or the navigation section it lies under (an
 * Activity tab, a record's detail: its link stays current), or else Overview.
 */
export function signedInRoute(route: string): { entry: SignedInRoute; subpath: string } {
  const exact = signedIn.find((entry) => entry.path === route);
  if (exact) return { entry: exact, subpath: '' };
  const section = NAVIGATION.find((entry) => entry.path !== '/' && route.startsWith(`${entry.path}/`));
  if (section) return { entry: section, subpath: route.slice(section.path.length + 1) };
  return { entry: NAVIGATION[0]!, subpath: '' };
}
