import { useEffect, useRef, useState } from 'preact/hooks';
import { auditLogApi } from '../api/audit-log.ts';
import type { AuditEntry } from '../api/types.ts';
import { ErrorMessage, formatTime, Table, useTitle } from '../components/ui.tsx';

// Every action the server writes (its AuditAction): one added there without a label here fails the type check.
const ACTIONS: Record<AuditEntry['action'], string> = {
  signed_up: 'Signed up',
  'email.verified': 'Confirmed their email',
  signed_in: 'Signed in',
  'two_factor.enabled': 'Turned on two-factor sign-in',
  'two_factor.replaced': 'Replaced their authenticator app',
  'two_factor.disabled': 'Turned off two-factor sign-in',
  'two_factor.reset': "Two-factor sign-in turned off by Cambio's support",
  'two_factor.required': 'Required two-factor sign-in of every member',
  'two_factor.not_required': 'Stopped requiring two-factor sign-in',
  'password.reset': 'Chose a new password by mail',
  'password.changed': 'Changed their password',
  'invitation.created': 'Invited',
  'invitation.accepted': 'Accepted the invitation',
  'invitation.revoked': 'Revoked the invitation of',
  'invitation.resent': 'Sent a new invitation link to',
  'api_key.created': 'Created API key',
  'api_key.rolled': 'Rolled API key secret',
  'api_key.revoked': 'Revoked API key',
  'api_key.allowed_ips_changed': 'Changed the allowed IPs of API key',
  'member.role_changed': 'Changed the role of',
  'member.removed': 'Removed member',
  'webhook.created': 'Added webhook endpoint',
  'webhook.updated': 'Changed webhook endpoint',
  'webhook.enabled': 'Enabled webhook endpoint',
  'webhook.disabled': 'Disabled webhook endpoint',
  'webhook.deleted': 'Deleted webhook endpoint',
  'webhook.secret_rolled': 'Rolled webhook signing secret',
  'webhook.test_sent': 'Sent a test event',
  'webhook.resent': 'Resent an event',
  'deposit.payment_simulated': 'Simulated a payment to',
  'deposit.released': 'Released held deposit',
  'deposit.kept_held': 'Kept held deposit',
  'withdrawal.sent': 'Sent withdrawal',
  'withdrawal_limit.changed': 'Changed the daily withdrawal limit',
  'company.rate_limit_changed': 'Changed the API rate limit',
  'withdrawal_address.added': 'Added withdrawal address',
  'withdrawal_address.removed': 'Removed withdrawal address',
  'withdrawal_allowlist.enabled': 'Turned on the withdrawal allowlist',
  'withdrawal_allowlist.disabled': 'Turned off the withdrawal allowlist',
};

/** Why a person's release kept a deposit's money held (an entry's `keptHeldFor`). */
const KEPT_HELD_FOR: Record<string, string> = {
  address_frozen: "the token's issuer freezes its address",
  sender_sanctioned: 'its payer is on the sanctions list',
};

/** What an entry's details add to its action, in words. */
function detailsOf(details: Record<string, string> | null): string {
  if (!details) return '';
  if (details.oldSecretValidFor) return ` (old secret valid for ${details.oldSecretValidFor})`;
  if (details.from && details.to) return ` (${details.from} → ${details.to})`;
  if (details.role) return ` (${details.role})`;
  if (details.eventId) return ` (${details.eventId})`;
  if (details.dailyLimit) return ` (${details.dailyLimit === 'none' ? 'none' : `${details.dailyLimit} USDT`} from ${formatTime(details.from ?? null)})`;
  if (details.label) return ` (${details.label}, usable from ${formatTime(details.activeFrom ?? null)})`;
  if (details.offFrom) return ` (from ${formatTime(details.offFrom)})`;
  if (details.name === undefined && details.allowedIps) return details.allowedIps === 'any' ? ' (any address)' : ` (${details.allowedIps.split(' ').join(', ')})`;
  if (details.name !== undefined && (details.access === 'read' || details.allowedIps)) {
    return ` (${[details.access === 'read' && 'read only', details.allowedIps && `from ${details.allowedIps.split(' ').join(', ')}`].filter(Boolean).join(', ')})`;
  }
  if (details.amount && details.address) return ` (${details.amount} USDT to ${details.address})`;
  if (details.amount) return ` (${details.amount} USDT${details.txHash ? `, transaction ${details.txHash.slice(0, 10)}…` : ''}${details.keptHeldFor ? `, now held: ${KEPT_HELD_FOR[details.keptHeldFor] ?? details.keptHeldFor}` : ''})`;
  return '';
}

export function AuditLogPage(props: { companyId: string }) {
  useTitle('Audit log');
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  // One page at a time, its answer shown only while it is the latest asked: a page asked twice (a
  // double click) would otherwise be listed twice.
  const latest = useRef(0);
  const [loading, setLoading] = useState(true);
  const load = async (after?: string) => {
    const call = ++latest.current;
    setLoading(true);
    setError(null);
    try {
      const page = await auditLogApi.auditLog(props.companyId, after);
      if (call !== latest.current) return;
      setEntries((previous) => [...(after ? (previous ?? []) : []), ...page.data]);
      setCursor(page.pagination?.nextCursor ?? null);
    } catch (caught) {
      if (call === latest.current) setError(caught);
    } finally {
      if (call === latest.current) setLoading(false);
    }
  };
  useEffect(() => {
    void load();
  }, [props.companyId]);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Audit log</h1>
      <p>Who did what and when, from which address. Entries are never changed or removed.</p>
      <ErrorMessage error={error} />
      <Table
        error={error}
        caption="Audit log, newest first"
        columns={['When', 'Who', 'What', 'Target', 'From']}
        rows={entries}
        row={(entry) => (
            <tr key={entry.id}>
              <td>{formatTime(entry.createdAt)}</td>
              <td>{entry.actor.email ?? 'Command line'}</td>
              <td>
                {ACTIONS[entry.action] ?? entry.action}
                {detailsOf(entry.details)}
              </td>
              <td>{entry.target ? <code>{entry.target}</code> : '—'}</td>
              <td>{entry.sourceIp}</td>
            </tr>
        )}
      />
      {cursor && (
        // aria-disabled, not disabled: a disabled button would drop the keyboard's focus to the page.
        <button type="button" class="secondary" onClick={() => loading || load(cursor)} aria-disabled={loading}>
          Load older entries
        </button>
      )}
    </section>
  );
}
