import { useState } from 'preact/hooks';
import type { Role } from '../../api.ts';
import { webhooksApi, type Endpoint } from '../../webhooks-api.ts';
import { ErrorMessage, formatTime, Link, LinkedRow, SectionHead, Table, useLoaded, useTitle } from '../../ui.tsx';
import { EndpointPage } from './endpoint.tsx';
import { EndpointDialog, SecretDialog } from './endpoint-form.tsx';

/** Webhooks (../shared/dashboard.md): the company's endpoints, or one endpoint's page at /webhooks/<id>. */
export function WebhooksPage(props: { companyId: string; role: Role; route: string }) {
  const webhookId = props.route.startsWith('/webhooks/') ? props.route.slice('/webhooks/'.length) : null;
  if (webhookId) return <EndpointPage companyId={props.companyId} role={props.role} webhookId={webhookId} />;
  return <EndpointList companyId={props.companyId} role={props.role} />;
}

export const eventsText = (events: string[]) => (events[0] === '*' ? 'All events' : events.join(', '));

function EndpointList(props: { companyId: string; role: Role }) {
  useTitle('Webhooks');
  const { data: endpoints, error, reload } = useLoaded(async () => (await webhooksApi.list(props.companyId)).data, [props.companyId]);
  const [open, setOpen] = useState<{ kind: 'add' } | { kind: 'secret'; secret: string } | null>(null);
  const canChange = props.role !== 'Viewer';

  return (
    <section aria-labelledby="page-title">
      <SectionHead title="Webhooks" action={canChange && { label: 'Add endpoint', onClick: () => setOpen({ kind: 'add' }) }} />
      <p>Cambio POSTs each event to your endpoints, signed with the endpoint's secret (Standard Webhooks), and retries for up to 24 hours.</p>
      <ErrorMessage error={error} />
      <Table
        error={error}
        caption="Endpoints"
        columns={['URL', 'Events', 'Status', 'Created']}
        rows={endpoints}
        empty="No endpoint yet."
        row={(endpoint) => (
          <LinkedRow key={endpoint.id} to={`/webhooks/${endpoint.id}`}>
            <th scope="row">
              <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
              {endpoint.description && <span class="hint"> {endpoint.description}</span>}
            </th>
            <td>{eventsText(endpoint.events)}</td>
            <td>
              <EndpointStatus endpoint={endpoint} />
            </td>
            <td>{formatTime(endpoint.createdAt)}</td>
          </LinkedRow>
        )}
      />
      {open?.kind === 'add' && (
        <EndpointDialog
          title="Add endpoint"
          label="Add endpoint"
          save={async (input) => {
            const { data } = await webhooksApi.add(props.companyId, input);
            setOpen({ kind: 'secret', secret: data.secret });
          }}
          onSaved={() => void reload()}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'secret' && <SecretDialog secret={open.secret} onDone={() => setOpen(null)} />}
    </section>
  );
}

export function EndpointStatus(props: { endpoint: Endpoint }) {
  return (
    <>
      <span class={`status ${props.endpoint.enabled ? 'active' : 'revoked'}`}>{props.endpoint.enabled ? 'Enabled' : 'Disabled'}</span>
      {props.endpoint.disabledReason && <span class="hint"> by Cambio: {props.endpoint.disabledReason}</span>}
    </>
  );
}
