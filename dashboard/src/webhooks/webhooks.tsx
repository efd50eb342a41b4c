import { useState } from 'preact/hooks';
import { webhooksApi } from '../api/webhooks.ts';
import type { Role } from '../api/types.ts';
import { ErrorMessage, formatTime, Link, LinkedRow, SectionHead, Table, useLoaded, useTitle } from '../components/ui.tsx';
import { EndpointDialog, SecretDialog } from './endpoint-form.tsx';
import { EndpointStatus, eventsText } from './endpoint-status.tsx';

/** Webhooks (../shared/dashboard.md): the company's endpoints; each has its page at /webhooks/<id> (./endpoint.tsx). */
export function WebhooksPage(props: { companyId: string; role: Role }) {
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
