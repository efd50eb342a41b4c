import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { activityApi } from '../api/activity.ts';
import type { ActivityFilter, ActivityKind, ActivityRow, Role } from '../api/types.ts';
import { navigate } from '../router.ts';
import { DayRange, downloadOnceAllowed, ErrorMessage, formatTime, Link, LinkedRow, Table, useTitle } from '../components/ui.tsx';
import { NewWithdrawalDialog } from '../withdrawals/new-withdrawal.tsx';
import { ACTIVITY_TABS, depositStatusText, EMPTY_FILTER, NETWORK_OPTIONS, networkTitle } from './tabs.ts';

/** Set when a tab was chosen (by keyboard or click): the new tab list, mounted with its panel, takes
 * focus, as a tab list that stayed in place would keep it. */
let focusSelectedTab = false;

/** The tabs (WAI-ARIA tabs pattern: arrow keys, Home and End move between them and select). */
function ActivityTabs(props: { kind: ActivityKind }) {
  const selected = useRef<HTMLButtonElement>(null);
  // In the same commit as the new tabs reach the DOM: after paint (useEffect), the selected tab
  // would show for a moment while focus had fallen to the page's body.
  useLayoutEffect(() => {
    if (focusSelectedTab) selected.current?.focus();
    focusSelectedTab = false;
  }, []);
  const select = (index: number) => {
    const tab = ACTIVITY_TABS[(index + ACTIVITY_TABS.length) % ACTIVITY_TABS.length]!;
    if (tab.kind === props.kind) return;
    focusSelectedTab = true;
    navigate(`/activity/${tab.kind}`);
  };
  const current = ACTIVITY_TABS.findIndex((t) => t.kind === props.kind);
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: ACTIVITY_TABS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(moves[event.key]!);
  };
  return (
    <div role="tablist" aria-label="Activity" class="tabs" onKeyDown={onKeyDown}>
      {ACTIVITY_TABS.map((tab, index) => (
        <button
          key={tab.kind}
          ref={tab.kind === props.kind ? selected : undefined}
          type="button"
          role="tab"
          id={`tab-${tab.kind}`}
          aria-selected={tab.kind === props.kind}
          aria-controls={`panel-${tab.kind}`}
          tabIndex={tab.kind === props.kind ? 0 : -1}
          onClick={() => select(index)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** Activity (../shared/dashboard.md): one tab's list, filtered, paged and exported. */
export function ActivityPage(props: { companyId: string; kind: ActivityKind; role: Role }) {
  const tab = ACTIVITY_TABS.find((t) => t.kind === props.kind)!;
  useTitle(`Activity · ${tab.label}`);
  const [draft, setDraft] = useState<ActivityFilter>(EMPTY_FILTER);
  const [filter, setFilter] = useState<ActivityFilter>(EMPTY_FILTER);
  const [rows, setRows] = useState<ActivityRow[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [exporting, setExporting] = useState(false);
  const [sending, setSending] = useState(false);
  // Owners and Admins; the dashboard API checks it again (`sendWithdrawals`).
  const canSend = props.kind === 'withdrawals' && (props.role === 'Owner' || props.role === 'Admin');

  // Only the latest call's answer is shown: an earlier one (the list before a filter was applied,
  // a page of the filter before) arriving last would mix another list into this one.
  const latest = useRef(0);
  const [loading, setLoading] = useState(true);
  const load = async (applied: ActivityFilter, after?: string) => {
    const call = ++latest.current;
    setLoading(true);
    setError(null);
    try {
      const page = await activityApi.list(props.companyId, props.kind, applied, after);
      if (call !== latest.current) return;
      setRows((previous) => [...(after ? (previous ?? []) : []), ...page.data]);
      setCursor(page.pagination?.nextCursor ?? null);
    } catch (caught) {
      if (call !== latest.current) return;
      setError(caught);
      if (!after) setRows([]);
    } finally {
      if (call === latest.current) setLoading(false);
    }
  };
  useEffect(() => {
    void load(filter);
  }, [props.companyId, props.kind, filter]);

  // The cursor goes with the rows: it pages the list they came from, not the next filter's.
  const apply = (event: Event) => {
    event.preventDefault();
    setRows(null);
    setCursor(null);
    setFilter({ ...draft });
  };
  const clear = () => {
    setDraft(EMPTY_FILTER);
    setRows(null);
    setCursor(null);
    // A new object even when no filter was applied: the list loads again, as it shows `Loading…`.
    setFilter({ ...EMPTY_FILTER });
  };
  // A list call first (downloadOnceAllowed): a refused filter shows here, not in the saved file.
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadOnceAllowed(() => activityApi.list(props.companyId, props.kind, filter), activityApi.exportUrl(props.companyId, props.kind, filter));
    } catch (caught) {
      setError(caught);
    } finally {
      setExporting(false);
    }
  };
  const field = (name: keyof ActivityFilter) => ({
    value: draft[name],
    onInput: (e: Event) => setDraft({ ...draft, [name]: (e.target as HTMLInputElement).value }),
  });

  return (
    <section aria-labelledby="page-title">
      <div class="section-head">
        <h1 id="page-title">Activity</h1>
        <div class="buttons">
          {canSend && (
            <button type="button" onClick={() => setSending(true)}>
              New withdrawal
            </button>
          )}
          <button type="button" class="secondary" onClick={exportCsv} disabled={exporting}>
            Export CSV
          </button>
        </div>
      </div>
      {sending && (
        <NewWithdrawalDialog
          companyId={props.companyId}
          onClose={() => {
            setSending(false);
            // A send whose answer was lost may have made a withdrawal the list does not show yet.
            void load(filter);
          }}
          onSent={(withdrawalId) => navigate(`/activity/withdrawals/${encodeURIComponent(withdrawalId)}`)}
        />
      )}
      <ActivityTabs kind={props.kind} />
      <div role="tabpanel" id={`panel-${props.kind}`} aria-labelledby={`tab-${props.kind}`}>
        <form class="filters" onSubmit={apply} aria-label={`Filter ${tab.label.toLowerCase()}`}>
          <div>
            <label for="filter-q">Search</label>
            <input id="filter-q" type="search" placeholder={props.kind === 'events' ? 'Id' : 'Id or reference'} {...field('q')} />
          </div>
          <div>
            <label for="filter-status">{tab.statusLabel}</label>
            <select id="filter-status" {...field('status')} onChange={(e) => setDraft({ ...draft, status: (e.target as HTMLSelectElement).value })}>
              <option value="">Any</option>
              {tab.statuses.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </div>
          {tab.onNetworks && (
            <div>
              <label for="filter-network">Network</label>
              <select id="filter-network" {...field('network')} onChange={(e) => setDraft({ ...draft, network: (e.target as HTMLSelectElement).value })}>
                <option value="">Any</option>
                {NETWORK_OPTIONS.map((network) => (
                  <option key={network.name} value={network.name}>
                    {network.title}
                  </option>
                ))}
              </select>
            </div>
          )}
          <DayRange id="filter" from={draft.from} to={draft.to} onChange={(range) => setDraft({ ...draft, ...range })} />
          <div class="filter-buttons">
            <button type="submit">Apply</button>
            <button type="button" class="secondary" onClick={clear}>
              Clear
            </button>
          </div>
        </form>
        <ErrorMessage error={error} />
        {rows === null ? <p class="loading">Loading…</p> : <ActivityTable kind={props.kind} rows={rows} label={tab.label} />}
        {cursor && (
          // aria-disabled, not disabled: a disabled button would drop the keyboard's focus to the page.
          <button type="button" class="secondary" onClick={() => loading || load(filter, cursor)} aria-disabled={loading}>
            Load more
          </button>
        )}
      </div>
    </section>
  );
}

const COLUMNS: Record<ActivityKind, { title: string; value: (row: ActivityRow) => string; num?: boolean }[]> = {
  deposits: [
    { title: 'Reference', value: (r) => String(r.reference) },
    { title: 'Network', value: (r) => networkTitle(r.network) },
    { title: 'Status', value: depositStatusText },
    { title: 'Amount (USDT)', value: (r) => String(r.amount ?? 'Any'), num: true },
    { title: 'Received (USDT)', value: (r) => String(r.receivedAmount), num: true },
  ],
  withdrawals: [
    { title: 'Reference', value: (r) => String(r.reference) },
    { title: 'Network', value: (r) => networkTitle(r.network) },
    { title: 'Status', value: (r) => String(r.status) },
    { title: 'Amount (USDT)', value: (r) => String(r.amount), num: true },
    { title: 'Fee (USDT)', value: (r) => String(r.fee), num: true },
  ],
  conversions: [
    { title: 'Reference', value: (r) => String(r.reference ?? '—') },
    { title: 'Status', value: (r) => String(r.status) },
    { title: 'USDT', value: (r) => String(r.sourceAmount), num: true },
    { title: 'BRL', value: (r) => String(r.settlementAmount), num: true },
  ],
  events: [
    { title: 'Type', value: (r) => String(r.type) },
    { title: 'Delivered', value: (r) => (r.dispatchedAt ? formatTime(String(r.dispatchedAt)) : 'Not yet') },
  ],
};

function ActivityTable(props: { kind: ActivityKind; rows: ActivityRow[]; label: string }) {
  return (
    <Table
      caption={`${props.label}, newest first`}
      columns={['Id', ...COLUMNS[props.kind], 'Created']}
      rows={props.rows}
      empty="Nothing matches."
      row={(row) => (
        <LinkedRow key={row.id} to={`/activity/${props.kind}/${row.id}`}>
          <td>
            <Link to={`/activity/${props.kind}/${row.id}`}>
              <code>{row.id}</code>
            </Link>
          </td>
          {COLUMNS[props.kind].map((column) => (
            <td key={column.title} class={column.num ? 'num' : undefined}>
              {column.value(row)}
            </td>
          ))}
          <td>{formatTime(row.createdAt)}</td>
        </LinkedRow>
      )}
    />
  );
}
