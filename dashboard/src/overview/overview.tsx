import { useState } from 'preact/hooks';
import { activityApi } from '../api/activity.ts';
import { overviewApi } from '../api/overview.ts';
import type { ActivityKind, Overview } from '../api/types.ts';
import { EMPTY_FILTER } from '../activity/tabs.ts';
import { DayRange, downloadOnceAllowed, ErrorMessage, formatTime, Link, LinkedRow, Table, useAction, useLoaded, useTitle } from '../components/ui.tsx';

export function OverviewPage(props: { companyId: string }) {
  useTitle('Overview');
  const { data: overview, error } = useLoaded(async () => (await overviewApi.overview(props.companyId)).data, [props.companyId]);
  if (error) return <ErrorMessage error={error} />;
  if (!overview) return <p class="loading">Loading…</p>;
  const { company, balance, held } = overview;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">
        {company.name} <span class={`badge ${company.environment}`}>{company.environment === 'sandbox' ? 'Sandbox' : 'Production'}</span>
      </h1>
      <p class="muted">
        Company id <code>{company.id}</code>
      </p>
      <RateLimit rateLimit={company.rateLimit} />
      <table>
        <caption>Balances, as of {formatTime(balance.updatedAt)}</caption>
        <thead>
          <tr>
            <th scope="col">Currency</th>
            <th scope="col" class="num">
              Available
            </th>
            <th scope="col" class="num">
              Pending
            </th>
            <th scope="col" class="num">
              Locked
            </th>
          </tr>
        </thead>
        <tbody>
          {balance.balances.map((row) => (
            <tr key={row.currency}>
              <th scope="row">{row.currency}</th>
              <td class="num">{row.available}</td>
              <td class="num">{row.pending}</td>
              <td class="num">{row.locked}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Held held={held} />
      <Statement companyId={company.id} />
      <LatestActivity companyId={company.id} />
    </section>
  );
}

/** The company's own limit on /v1 (GET /v1/company's `rateLimit`): what its integration may send
 * before the API answers 429; Cambio raises it by tier. */
function RateLimit(props: { rateLimit: Overview['company']['rateLimit'] }) {
  const { requestsPerSecond, burst, tier } = props.rateLimit;
  return (
    <p class="muted">
      API rate limit: {requestsPerSecond} requests a second, bursts of {burst} ({tier})
    </p>
  );
}

/** Deposits recorded but not credited (../shared/dashboard.md, Held deposits), apart from the
 * balance: a currency shows once something in it is held. */
function Held(props: { held: Overview['held'] }) {
  const amounts = props.held.filter((row) => /[1-9]/.test(row.amount));
  return (
    <section aria-labelledby="held-title">
      <h2 id="held-title">Held</h2>
      <p class="held-amount">{amounts.length === 0 ? 'Nothing is held.' : amounts.map((row) => `${row.amount} ${row.currency}`).join(', ')}</p>
      <p class="muted">Deposits received but not credited (an address the token's issuer froze, a payer on the sanctions list): not in the balance above until released.</p>
    </section>
  );
}

/** The server's limit (functions/companies/statement.ts MAX_STATEMENT_DAYS), said before the request. */
const MAX_STATEMENT_DAYS = 366;

/** For finance: every change to the balances between two UTC days as CSV, with the opening and
 * closing balances (functions/companies/statement.ts), saved by the browser as the server streams it. */
function Statement(props: { companyId: string }) {
  const today = new Date().toISOString().slice(0, 10);
  const [period, setPeriod] = useState({ from: `${today.slice(0, 8)}01`, to: today });
  const [problem, setProblem] = useState<string | null>(null);
  const statement = useAction(
    () => downloadOnceAllowed(() => overviewApi.overview(props.companyId), overviewApi.statementUrl(props.companyId, period)),
    () => undefined,
  );
  const download = (event: SubmitEvent) => {
    event.preventDefault();
    const days = (Date.parse(period.to) - Date.parse(period.from)) / 86_400_000 + 1;
    if (!(days >= 1)) return setProblem('To must not be before From.');
    if (days > MAX_STATEMENT_DAYS) return setProblem(`A statement covers at most ${MAX_STATEMENT_DAYS} days.`);
    setProblem(null);
    void statement.run();
  };
  return (
    <section aria-labelledby="statement-title">
      <h2 id="statement-title">Statement</h2>
      <p class="muted">Every change to the balances between two days (UTC), each with the balances after it, from the opening balances to the closing ones, as CSV.</p>
      <form class="statement-form" onSubmit={download} aria-labelledby="statement-title">
        <DayRange id="statement" from={period.from} to={period.to} max={today} required onChange={setPeriod} />
        <button type="submit" class="secondary" disabled={statement.busy}>
          Download statement
        </button>
      </form>
      {problem && (
        <div class="error" role="alert">
          <p>{problem}</p>
        </div>
      )}
      <ErrorMessage error={statement.error} />
    </section>
  );
}

const LATEST = 10;
const KIND_OF_EVENT: Record<string, ActivityKind> = { deposit: 'deposits', withdrawal: 'withdrawals', conversion: 'conversions' };

/** The company's newest events (what changed, on which record), each linking to its record's page
 * in Activity, where the whole story and its webhook deliveries are. */
function LatestActivity(props: { companyId: string }) {
  const { data: events, error } = useLoaded(async () => (await activityApi.list(props.companyId, 'events', EMPTY_FILTER)).data.slice(0, LATEST), [props.companyId]);
  return (
    <section aria-labelledby="latest-title">
      <h2 id="latest-title">Latest activity</h2>
      <ErrorMessage error={error} />
      <Table
        error={error}
        labelledBy="latest-title"
        columns={['When', 'What', 'Record', { title: 'Amount', num: true }]}
        rows={events}
        empty="Nothing yet: deposits, withdrawals and conversions show here as they change."
        row={(event) => {
          const type = String(event.type);
          const record = ((event.payload as { data?: Record<string, unknown> } | undefined)?.data ?? {}) as Record<string, unknown>;
          const kind = KIND_OF_EVENT[type.split('.')[0]!];
          // What moved: a deposit's received USDT, a withdrawal's amount, a conversion's USDT.
          const amount = kind === 'deposits' ? record.receivedAmount : kind === 'conversions' ? record.sourceAmount : record.amount;
          const detail = kind && typeof record.id === 'string' ? `/activity/${kind}/${record.id}` : null;
          const cells = (
            <>
              <td>{formatTime(event.createdAt)}</td>
              <td>
                <code>{type}</code>
              </td>
              <td>{detail ? <Link to={detail}>{String(record.id)}</Link> : '—'}</td>
              <td class="num">{amount ? `${String(amount)} USDT` : '—'}</td>
            </>
          );
          return detail ? (
            <LinkedRow key={event.id} to={detail}>
              {cells}
            </LinkedRow>
          ) : (
            <tr key={event.id}>{cells}</tr>
          );
        }}
      />
    </section>
  );
}
