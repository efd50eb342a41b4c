import { useEffect, useState } from 'preact/hooks';
import type { Role } from '../../api.ts';
import { webhooksApi, type Endpoint } from '../../webhooks-api.ts';
import { ErrorMessage, formatTime, Link, useTitle } from '../../ui.tsx';
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
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<{ kind: 'add' } | { kind: 'secret'; secret: string } | null>(null);
  const canChange = props.role !== 'Viewer';
  const reload = () => webhooksApi.list(props.companyId).then((r) => setEndpoints(r.data), setError);
  useEffect(() => {
    void reload();
  }, [props.companyId]);

  return (
    <section aria-labelledby="page-title">
      <div class="section-head">
        <h1 id="page-title">Webhooks</h1>
        {canChange && (
          <button type="button" onClick={() => setOpen({ kind: 'add' })}>
            Add endpoint
          </button>
        )}
      </div>
      <p>Cambio POSTs each event to your endpoints, signed with the endpoint's secret (Standard Webhooks), and retries for up to 24 hours.</p>
      <ErrorMessage error={error} />
      {endpoints === null ? (
        <p class="loading">Loading…</p>
      ) : endpoints.length === 0 ? (
        <p class="muted">No endpoint yet.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Endpoints</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((endpoint) => (
              <tr key={endpoint.id}>
                <th scope="row">
                  <Link to={`/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                  {endpoint.description && <span class="hint"> {endpoint.description}</span>}
                </th>
                <td>{eventsText(endpoint.events)}</td>
                <td>
                  <EndpointStatus endpoint={endpoint} />
                </td>
                <td>{formatTime(endpoint.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
