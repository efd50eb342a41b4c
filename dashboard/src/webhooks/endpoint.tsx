import { useEffect, useState } from 'preact/hooks';
import { webhooksApi } from '../api/webhooks.ts';
import type { Attempt, Endpoint, EndpointChange, EndpointInput, Role } from '../api/types.ts';
import { navigate } from '../router.ts';
import { ConfirmDialog, ErrorMessage, formatTime, Link, stillAhead, Table, useTitle } from '../components/ui.tsx';
import { EndpointDialog, SecretDialog } from './endpoint-form.tsx';
import { EndpointStatus, eventsText } from './endpoint-status.tsx';

/** What Edit changed of what the page showed: a field the person left alone stays as it stands on
 * the server, where a colleague may have changed it since this page loaded. */
function changedFields(shown: Endpoint, edited: Omit<EndpointInput, 'enabled'>): EndpointChange {
  return {
    ...(edited.url !== shown.url && { url: edited.url }),
    ...(JSON.stringify(edited.events) !== JSON.stringify(shown.events) && { events: edited.events }),
    ...(edited.description !== shown.description && { description: edited.description }),
  };
}

type Open = { kind: 'edit' } | { kind: 'delete' } | { kind: 'roll' } | { kind: 'secret'; secret: string; until: string | null } | null;

/** Deliveries are asynchronous: after a test event or a resend the page looks again for a while. */
const FOLLOW_MS = 10_000;

/** One endpoint (../shared/dashboard.md, Webhooks): its settings, its actions, its delivery attempts. */
export function EndpointPage(props: { companyId: string; role: Role; webhookId: string }) {
  useTitle('Webhook endpoint');
  const [endpoint, setEndpoint] = useState<Endpoint | null>(null);
  const [attempts, setAttempts] = useState<Attempt[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState('');
  const [open, setOpen] = useState<Open>(null);
  const [followUntil, setFollowUntil] = useState(0);
  const canChange = props.role !== 'Viewer';
  const { companyId, webhookId } = props;

  const loadAttempts = () =>
    webhooksApi.attempts(companyId, webhookId).then((r) => {
      setAttempts(r.data);
      setNextCursor(r.pagination?.nextCursor ?? null);
    }, setError);
  useEffect(() => {
    webhooksApi.get(companyId, webhookId).then((r) => setEndpoint(r.data), setError);
    void loadAttempts();
  }, [companyId, webhookId]);
  useEffect(() => {
    if (followUntil <= Date.now()) return;
    const timer = setInterval(() => (Date.now() > followUntil ? clearInterval(timer) : void loadAttempts()), 1000);
    return () => clearInterval(timer);
  }, [followUntil]);

  const act = async (what: () => Promise<unknown>, said: string) => {
    setError(null);
    // An earlier action's "sent" must not stand beside this one's refusal.
    setNotice('');
    try {
      await what();
      setNotice(said);
      setFollowUntil(Date.now() + FOLLOW_MS);
    } catch (caught) {
      setError(caught);
      // Refused, perhaps for a change made since the page loaded (a 410 disabled the endpoint): the
      // page shows the endpoint as it stands, and with it which actions are open.
      webhooksApi.get(companyId, webhookId).then((r) => setEndpoint(r.data), () => undefined);
    }
  };
  const more = async () => {
    const page = await webhooksApi.attempts(companyId, webhookId, nextCursor!);
    setAttempts([...(attempts ?? []), ...page.data]);
    setNextCursor(page.pagination?.nextCursor ?? null);
  };

  if (!endpoint) {
    return (
      // Laid out as the loaded page, so its heading stays the same element (focused on arrival: main.tsx).
      <section aria-labelledby="page-title">
        <p>
          <Link to="/webhooks">← Webhooks</Link>
        </p>
        <h1 id="page-title">Webhook endpoint</h1>
        <ErrorMessage error={error} />
        {!error && <p class="loading">Loading…</p>}
      </section>
    );
  }
  // Within 24 hours of a roll two secrets sign; only the two newest ever do (functions/webhooks/webhook-endpoints.ts rollSecret).
  const previousSignsUntil = stillAhead(endpoint.previousSecretExpiresAt);
  // The sender delivers nothing to a disabled endpoint, so the API refuses a test event or a resend to
  // one: their buttons stay in place, greyed, described by the line that says why and what to do.
  const undeliverable = canChange && !endpoint.enabled;
  const whyNot = undeliverable ? 'not-delivering' : undefined;
  return (
    <section aria-labelledby="page-title">
      <p>
        <Link to="/webhooks">← Webhooks</Link>
      </p>
      <h1 id="page-title">{endpoint.url}</h1>
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <EndpointStatus endpoint={endpoint} />
          </dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>{eventsText(endpoint.events)}</dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd>{endpoint.description ?? '—'}</dd>
        </div>
        <div>
          <dt>Endpoint id</dt>
          <dd>
            <code>{endpoint.id}</code>
          </dd>
        </div>
        {previousSignsUntil && (
          <div>
            <dt>Previous secret</dt>
            <dd>also signs until {formatTime(previousSignsUntil)}</dd>
          </div>
        )}
      </dl>
      {canChange && (
        <div class="actions toolbar">
          <button type="button" disabled={undeliverable} aria-describedby={whyNot} onClick={() => act(() => webhooksApi.sendTest(companyId, webhookId), 'Test event sent.')}>
            Send test event
          </button>
          <button type="button" class="secondary" onClick={() => setOpen({ kind: 'edit' })}>
            Edit
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => act(async () => setEndpoint((await webhooksApi.change(companyId, webhookId, { enabled: !endpoint.enabled })).data), endpoint.enabled ? 'Endpoint disabled.' : 'Endpoint enabled.')}
          >
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" class="secondary" onClick={() => setOpen({ kind: 'roll' })}>
            Roll secret
          </button>
          <button type="button" class="danger" onClick={() => setOpen({ kind: 'delete' })}>
            Delete
          </button>
        </div>
      )}
      {undeliverable && (
        <p id="not-delivering" class="hint">
          Disabled: Cambio sends nothing to this endpoint. Enable it to send a test event or resend an event.
        </p>
      )}
      <p role="status" class="hint">
        {notice}
      </p>
      <ErrorMessage error={error} />

      <section aria-labelledby="attempts-title">
        <div class="section-head">
          <h2 id="attempts-title">Delivery attempts</h2>
          <button type="button" class="secondary" onClick={() => void loadAttempts()}>
            Refresh
          </button>
        </div>
        <Table
          error={error}
          labelledBy="attempts-title"
          columns={['Event', 'Type', 'Time', 'HTTP status', 'Duration', 'Result', canChange && 'Actions']}
          rows={attempts}
          empty="No delivery attempt yet. Send a test event to try the endpoint."
          row={(attempt) => (
              <tr key={`${attempt.eventId}${attempt.attemptedAt}${attempt.attempt}`}>
                <th scope="row">
                  <code>{attempt.eventId}</code>
                </th>
                <td>
                  <code>{attempt.eventType}</code>
                </td>
                <td>{formatTime(attempt.attemptedAt)}</td>
                <td>{attempt.httpStatus ?? '—'}</td>
                <td>{attempt.durationMs} ms</td>
                <td>
                  <span class={`status ${attempt.result === 'succeeded' ? 'completed' : 'failed'}`}>{attempt.result === 'succeeded' ? 'Succeeded' : 'Failed'}</span>
                  {attempt.error && <span class="hint"> {attempt.error}</span>}
                </td>
                {canChange && (
                  <td class="actions">
                    <button type="button" class="secondary" aria-label={`Resend ${attempt.eventId}`} disabled={undeliverable} aria-describedby={whyNot} onClick={() => act(() => webhooksApi.resend(companyId, webhookId, attempt.eventId), `${attempt.eventId} queued again.`)}>
                      Resend
                    </button>
                  </td>
                )}
              </tr>
          )}
        />
        {nextCursor && (
          <button type="button" class="secondary" onClick={() => void more().catch(setError)}>
            Load more
          </button>
        )}
      </section>

      {open?.kind === 'edit' && (
        <EndpointDialog
          title="Edit endpoint"
          label="Save"
          initial={endpoint}
          save={async (input) => {
            const change = changedFields(endpoint, input);
            if (Object.keys(change).length) setEndpoint((await webhooksApi.change(companyId, webhookId, change)).data);
          }}
          onSaved={() => setOpen(null)}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'roll' && (
        <ConfirmDialog
          title="Roll the signing secret?"
          label="Roll secret"
          action={async () => {
            const { data } = await webhooksApi.rollSecret(companyId, webhookId);
            setEndpoint(data);
            setOpen({ kind: 'secret', secret: data.secret, until: data.previousSecretExpiresAt });
          }}
          onDone={() => undefined}
          onClose={() => setOpen(null)}
        >
          <p>A new secret signs every delivery from now on. The current one keeps signing beside it for 24 hours, so you can deploy the new one first.</p>
          {previousSignsUntil && (
            <p role="alert">
              The secret replaced before the current one still signs until {formatTime(previousSignsUntil)}. Rolling again stops it now: a receiver still verifying with it fails every delivery until it takes the new secret.
            </p>
          )}
        </ConfirmDialog>
      )}
      {open?.kind === 'secret' && (
        <SecretDialog secret={open.secret} note={open.until ? `The previous secret also signs until ${formatTime(open.until)}.` : undefined} onDone={() => setOpen(null)} />
      )}
      {open?.kind === 'delete' && (
        <ConfirmDialog title={`Delete ${endpoint.url}?`} label="Delete" danger action={() => webhooksApi.remove(companyId, webhookId)} onDone={() => navigate('/webhooks')} onClose={() => setOpen(null)}>
          <p>Cambio stops delivering events to it at once. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
