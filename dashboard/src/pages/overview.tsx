import { useEffect, useState } from 'preact/hooks';
import { api, type Overview } from '../api.ts';
import { ErrorMessage, formatTime, useTitle } from '../ui.tsx';

export function OverviewPage(props: { companyId: string }) {
  useTitle('Overview');
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api.overview(props.companyId).then((r) => setOverview(r.data), setError);
  }, [props.companyId]);
  if (error) return <ErrorMessage error={error} />;
  if (!overview) return <p class="loading">Loading…</p>;
  const { company, balance } = overview;
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">
        {company.name} <span class={`badge ${company.environment}`}>{company.environment === 'sandbox' ? 'Sandbox' : 'Production'}</span>
      </h1>
      <p class="muted">
        Company id <code>{company.id}</code>
      </p>
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
      <h2>Latest activity</h2>
      <p>Deposits, withdrawals and conversions will be listed here with the Activity page, in the next release.</p>
    </section>
  );
}
