import { useEffect, useState } from 'preact/hooks';
import { activityApi } from '../api/activity.ts';
import type { ActivityKind, ActivityRow, Delivery, Environment, Role } from '../api/types.ts';
import { ErrorMessage, formatTime, Link, Table, useTitle } from '../components/ui.tsx';
import { ACTIVITY_TABS, explorerUrl, holdReasonWords, networkTitle } from './tabs.ts';

type Detail = ActivityRow & { deliveries?: Delivery[] };

/** While a record may still change on its own (a deposit after a payment, a withdrawal until its
 * payout is settled on chain), its page asks again this often after a change; each answer that
 * changed nothing waits half as long again, up to MAX_POLL_MS: a payout waiting hours for the float,
 * left open in a tab, asks some 240 times an hour, not 3,600. A hidden tab asks nothing, and asks at
 * once when shown again. */
const POLL_MS = 1_000;
const MAX_POLL_MS = 15_000;
const POLL_BACKOFF = 1.5;
/** Nothing more to follow or pay: a held deposit waits on the issuer or a review, which may take days. */
const SETTLED = new Set(['completed', 'expired', 'held']);

const FIELDS: Record<ActivityKind, [string, string][]> = {
  deposits: [['Reference', 'reference'], ['Status', 'status'], ['Network', 'network'], ['Address', 'address'], ['Amount (USDT)', 'amount'], ['Received (USDT)', 'receivedAmount'], ['Credited (USDT)', 'creditedAmount'], ['Confirmations', 'confirmations'], ['Created', 'createdAt'], ['Expires', 'expiresAt']],
  withdrawals: [['Reference', 'reference'], ['Status', 'status'], ['Network', 'network'], ['Address', 'address'], ['Amount (USDT)', 'amount'], ['Fee (USDT)', 'fee'], ['Transaction', 'txHash'], ['Failure reason', 'failureReason'], ['Created', 'createdAt'], ['Completed', 'completedAt']],
  conversions: [['Reference', 'reference'], ['Status', 'status'], ['Quote', 'quoteId'], ['USDT', 'sourceAmount'], ['BRL', 'settlementAmount'], ['Rate (BRL per USDT)', 'rate'], ['Created', 'createdAt']],
  events: [['Type', 'type'], ['Created', 'createdAt'], ['Handed to webhooks', 'dispatchedAt']],
};

/** Facts only some records have, after the fact they qualify: a held deposit's reason, what a
 * withdrawal's payee received where the token's transfer fee made it less than `amount`, and what
 * its payout cost Cambio on the network where the record says (in the network's coin: the fee, and
 * on Solana the rent of a payee's token account the payout created). */
function factsOf(kind: ActivityKind, detail: Detail): [string, string][] {
  const after = (facts: [string, string][], name: string, fact: [string, string]) => facts.flatMap((field) => (field[1] === name ? [field, fact] : [field]));
  if (kind === 'deposits' && detail.holdReason != null) return after(FIELDS[kind], 'status', ['Hold reason', 'holdReason']);
  if (kind !== 'withdrawals') return FIELDS[kind];
  let facts = FIELDS[kind];
  if (detail.deliveredAmount != null && detail.deliveredAmount !== detail.amount) facts = after(facts, 'amount', ['Delivered (USDT)', 'deliveredAmount']);
  if (detail.networkCost != null) facts = after(facts, 'fee', ['Network cost', 'networkCost']);
  return facts;
}

/** A payout's cost on the network: `0.002044280 SOL, the payee's token account created`. */
function networkCostWords(value: unknown): string {
  const cost = value as { asset: string; amount: string; tokenAccountCreated?: boolean };
  return `${cost.amount} ${cost.asset}${cost.tokenAccountCreated ? ", the payee's token account created" : ''}`;
}

function shown(name: string, value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (name.endsWith('At')) return formatTime(String(value));
  if (name === 'network') return networkTitle(value);
  if (name === 'holdReason') return holdReasonWords(value)?.reason ?? String(value);
  if (name === 'networkCost') return networkCostWords(value);
  return String(value);
}

/** A transaction's hash, linked to its page on the record's network's public explorer. */
function Transaction(props: { network: unknown; txHash: string }) {
  const url = explorerUrl(props.network, props.txHash);
  const hash = <code>{props.txHash}</code>;
  return url ? (
    <a href={url} target="_blank" rel="noopener noreferrer" aria-label={`${props.txHash} on ${networkTitle(props.network)}'s explorer`}>
      {hash}
    </a>
  ) : (
    hash
  );
}

/** A fact's value: a status live for screen readers, a transaction linked to its explorer, else its text. */
function Fact(props: { name: string; detail: Detail }) {
  const value = props.detail[props.name];
  if (props.name === 'status') return <span aria-live="polite" class={`status ${String(value)}`}>{String(value)}</span>;
  if (props.name === 'txHash' && typeof value === 'string') return <Transaction network={props.detail.network} txHash={value} />;
  return <>{shown(props.name, value)}</>;
}

export function ActivityDetail(props: { companyId: string; kind: ActivityKind; id: string; role: Role; environment: Environment }) {
  const tab = ACTIVITY_TABS.find((t) => t.kind === props.kind)!;
  const noun = tab.label.slice(0, -1);
  useTitle(`${noun} ${props.id}`);
  const [detail, setDetail] = useState<Detail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [watching, setWatching] = useState(false);

  /** The record as read now (null when the read failed). */
  const load = async (): Promise<Detail | null> => {
    try {
      const { data } = await activityApi.detail(props.companyId, props.kind, props.id);
      setDetail(data);
      if (SETTLED.has(String(data.status))) setWatching(false);
      return data;
    } catch (caught) {
      setError(caught);
      return null;
    }
  };
  useEffect(() => {
    void load();
  }, [props.companyId, props.kind, props.id]);
  // What changes without anyone reloading: a deposit being paid (confirming, then completed), and a
  // withdrawal Cambio's jobs send (pending, processing, then completed or failed).
  const moving =
    watching || (props.kind === 'deposits' && detail?.status === 'confirming') || (props.kind === 'withdrawals' && (detail?.status === 'pending' || detail?.status === 'processing'));
  useEffect(() => {
    if (!moving) return;
    let stopped = false;
    let reading = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = POLL_MS;
    let last = JSON.stringify(detail);
    const poll = async () => {
      timer = undefined;
      if (document.hidden || reading) return;
      reading = true;
      const read = JSON.stringify(await load());
      reading = false;
      delay = read === last ? Math.min(delay * POLL_BACKOFF, MAX_POLL_MS) : POLL_MS;
      last = read;
      if (!stopped && timer === undefined) timer = setTimeout(() => void poll(), delay);
    };
    // Shown again: at once, and quickly again (a read under way when it shows goes on from itself).
    const shown = () => {
      if (document.hidden || stopped || reading) return;
      clearTimeout(timer);
      delay = POLL_MS;
      void poll();
    };
    timer = setTimeout(() => void poll(), delay);
    document.addEventListener('visibilitychange', shown);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', shown);
    };
  }, [moving, props.companyId, props.kind, props.id]);

  const hold = props.kind === 'deposits' && detail?.status === 'held' ? holdReasonWords(detail.holdReason) : null;
  const simulator = props.kind === 'deposits' && props.environment === 'sandbox' && props.role !== 'Viewer' && detail && !SETTLED.has(String(detail.status));
  return (
    <section aria-labelledby="page-title">
      <p>
        <Link to={`/activity/${props.kind}`}>Back to {tab.label}</Link>
      </p>
      <h1 id="page-title">
        {noun} <code>{props.id}</code>
      </h1>
      <ErrorMessage error={error} />
      {detail === null ? (
        !error && <p class="loading">Loading…</p>
      ) : (
        <>
          <dl class="facts">
            {factsOf(props.kind, detail).map(([label, name]) => (
              <div key={name}>
                <dt>{label}</dt>
                <dd>
                  <Fact name={name} detail={detail} />
                </dd>
              </div>
            ))}
          </dl>
          {hold && <p class="hint">{hold.explanation}</p>}
          {props.kind === 'deposits' && <Transfers detail={detail} />}
          {simulator && <SimulatePayment companyId={props.companyId} depositId={props.id} onPaid={() => setWatching(true)} />}
          {props.kind === 'events' && <EventBody detail={detail} />}
        </>
      )}
    </section>
  );
}

function Transfers(props: { detail: Detail }) {
  const transfers = (props.detail.transactions ?? []) as { txHash: string; amount: string; blockNumber: number; confirmations: number; status: string }[];
  return (
    <>
      <h2>Transfers</h2>
      <Table
        columns={['Transaction', { title: 'Amount (USDT)', num: true }, { title: 'Block', num: true }, { title: 'Confirmations', num: true }, 'Status']}
        rows={transfers}
        empty="No transfer to this address yet."
        row={(tx) => (
              <tr key={tx.txHash}>
                <td>
                  <Transaction network={props.detail.network} txHash={tx.txHash} />
                </td>
                <td class="num">{tx.amount}</td>
                <td class="num">{tx.blockNumber}</td>
                <td class="num">
                  {tx.confirmations} of {String(props.detail.requiredConfirmations)}
                </td>
                <td>{tx.status}</td>
              </tr>
        )}
      />
    </>
  );
}

/** Sandbox only, and not for Viewers (the API refuses both whatever the page shows). */
function SimulatePayment(props: { companyId: string; depositId: string; onPaid: () => void }) {
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [paid, setPaid] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const pay = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { data } = await activityApi.simulatePayment(props.companyId, props.depositId, amount.trim());
      setPaid(data.txHash);
      props.onPaid();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="simulator" onSubmit={pay} aria-labelledby="simulate-title">
      <h2 id="simulate-title">Simulate payment</h2>
      <p class="hint">Sends USDT to this deposit's address on the sandbox chain, as a customer's wallet would.</p>
      <label for="simulate-amount">Amount</label>
      <input id="simulate-amount" inputMode="decimal" autoComplete="off" required value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} />
      <div class="buttons">
        <button type="submit" disabled={busy}>
          Pay
        </button>
      </div>
      <ErrorMessage error={error} />
      {paid && (
        <p role="status">
          Sent on the sandbox chain: transaction <code>{paid}</code>. This page follows the deposit as it confirms.
        </p>
      )}
    </form>
  );
}

function EventBody(props: { detail: Detail }) {
  const deliveries = props.detail.deliveries ?? [];
  return (
    <>
      <h2>Payload</h2>
      <pre class="payload" tabIndex={0} aria-label="Event payload">
        {JSON.stringify(props.detail.payload, null, 2)}
      </pre>
      <h2>Deliveries</h2>
      <Table
        columns={['Webhook', 'Result', 'Attempts']}
        rows={deliveries}
        empty="No webhook was subscribed to this event."
        row={(delivery) => (
              <tr key={delivery.webhookId}>
                <td>
                  {/* The endpoint's page: its other attempts, Resend, its settings. */}
                  <Link to={`/webhooks/${delivery.webhookId}`}>
                    <code>{delivery.webhookId}</code>
                  </Link>
                </td>
                <td>{delivery.status}</td>
                <td>
                  <ol class="attempts">
                    {delivery.attempts.map((a) => (
                      <li key={`${a.round}-${a.attempt}`}>
                        {formatTime(a.at)}: {a.statusCode === null ? (a.error ?? 'no answer') : `HTTP ${a.statusCode}`} in {a.durationMs} ms
                      </li>
                    ))}
                  </ol>
                </td>
              </tr>
        )}
      />
    </>
  );
}
