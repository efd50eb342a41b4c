import { useState } from 'preact/hooks';
import { apiKeysApi } from '../api/api-keys.ts';
import type { ApiKey, IssuedKey, Role, RollGrace } from '../api/types.ts';
import { useProofFieldsWhen } from '../components/confirm-identity.tsx';
import { ConfirmDialog, Dialog, DialogButtons, ErrorMessage, formatTime, SectionHead, ShownOnceDialog, stillAhead, Table, useAction, useLoaded, useTitle } from '../components/ui.tsx';
import { WithdrawalAddresses } from '../withdrawals/withdrawal-addresses.tsx';
import { DailyWithdrawalLimit } from '../withdrawals/withdrawal-limit.tsx';

const ROLL_CHOICES = [
  { value: 'now', label: 'Now' },
  { value: '1h', label: '1 hour' },
  { value: '24h', label: '24 hours' },
  { value: '7d', label: '7 days' },
] as const;

type Open =
  | { kind: 'create' }
  | { kind: 'issued'; issued: IssuedKey; rolled: boolean }
  | { kind: 'roll'; key: ApiKey }
  | { kind: 'ips'; key: ApiKey }
  | { kind: 'revoke'; key: ApiKey }
  | null;

export function IntegrationsPage(props: { companyId: string; role: Role }) {
  useTitle('Integrations');
  const { data: keys, error, reload } = useLoaded(async () => (await apiKeysApi.apiKeys(props.companyId)).data, [props.companyId]);
  const [open, setOpen] = useState<Open>(null);
  const canChange = props.role !== 'Viewer';

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Integrations</h1>
      <section aria-labelledby="api-keys-title">
        <SectionHead title="API keys" id="api-keys-title" level={2} action={canChange && { label: 'Create API key', onClick: () => setOpen({ kind: 'create' }) }} />
        <p>
          Send a key's <code>X-Api-Key</code> and <code>X-Api-Secret</code> with every request to <code>/v1</code>. A secret is shown once, when it is made.
        </p>
        <ErrorMessage error={error} />
        <Table
          error={error}
          caption="API keys"
          columns={['Name', 'Key id', 'Access', 'Created', 'Last used', 'Status', canChange && 'Actions']}
          rows={keys}
          row={(key) => (
              <tr key={key.keyId}>
                <th scope="row">{key.name}</th>
                <td>
                  <code>{key.keyId}</code>
                </td>
                <td>
                  {ACCESS_LABELS[key.access]}
                  {key.allowedIps && <span class="hint"> from {key.allowedIps.join(', ')}</span>}
                </td>
                <td>{formatTime(key.createdAt)}</td>
                <td>
                  {formatTime(key.lastUsedAt)}
                  {key.lastUsedIp && <span class="hint"> from {key.lastUsedIp}</span>}
                </td>
                <td>
                  <span class={`status ${key.status}`}>{key.status === 'active' ? 'Active' : 'Revoked'}</span>
                  {key.previousSecretExpiresAt && <span class="hint"> old secret valid until {formatTime(key.previousSecretExpiresAt)}</span>}
                </td>
                {canChange && (
                  <td class="actions">
                    {key.status === 'active' && (
                      <>
                        <button type="button" class="secondary" aria-label={`Roll secret of ${key.name}`} onClick={() => setOpen({ kind: 'roll', key })}>
                          Roll secret
                        </button>
                        <button type="button" class="secondary" aria-label={`Edit allowed IPs of ${key.name}`} onClick={() => setOpen({ kind: 'ips', key })}>
                          Edit allowed IPs
                        </button>
                        <button type="button" class="danger" aria-label={`Revoke ${key.name}`} onClick={() => setOpen({ kind: 'revoke', key })}>
                          Revoke
                        </button>
                      </>
                    )}
                  </td>
                )}
              </tr>
          )}
        />
      </section>
      <WithdrawalAddresses companyId={props.companyId} role={props.role} />
      <DailyWithdrawalLimit companyId={props.companyId} role={props.role} />
      {open?.kind === 'create' && (
        <CreateKeyDialog
          companyId={props.companyId}
          onClose={() => setOpen(null)}
          onCreated={(issued) => {
            setOpen({ kind: 'issued', issued, rolled: false });
            void reload();
          }}
        />
      )}
      {open?.kind === 'issued' && <IssuedKeyDialog issued={open.issued} rolled={open.rolled} onDone={() => setOpen(null)} />}
      {open?.kind === 'roll' && (
        <RollDialog
          companyId={props.companyId}
          apiKey={open.key}
          onClose={() => setOpen(null)}
          onRolled={(issued) => {
            setOpen({ kind: 'issued', issued, rolled: true });
            void reload();
          }}
        />
      )}
      {open?.kind === 'ips' && (
        <AllowedIpsDialog
          companyId={props.companyId}
          apiKey={open.key}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            void reload();
          }}
        />
      )}
      {open?.kind === 'revoke' && (
        <ConfirmDialog
          title={`Revoke ${open.key.name}?`}
          label="Revoke"
          danger
          action={() => apiKeysApi.revokeApiKey(props.companyId, open.key.keyId)}
          onDone={() => {
            setOpen(null);
            void reload();
          }}
          onClose={() => setOpen(null)}
        >
          <p>
            Requests with <code>{open.key.keyId}</code> will be refused within a minute. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

const ACCESS_LABELS: Record<ApiKey['access'], string> = { full: 'Full access', read: 'Read only' };

/** A full-access key's secret can send withdrawals, so it is issued, and rolled, on the person's
 * password (and code) as `New withdrawal` is (functions/api-keys/key-management.ts); a read-only one
 * on a recent sign-in (`Confirm it's you` opens when it is too old). */
const FULL_ACCESS_PROOF_HINT = 'Yours, again: a full-access key can send withdrawals.';

function CreateKeyDialog(props: { companyId: string; onClose: () => void; onCreated: (issued: IssuedKey) => void }) {
  const [name, setName] = useState('');
  const [access, setAccess] = useState<ApiKey['access']>('full');
  const [ips, setIps] = useState('');
  const { proof, fields } = useProofFieldsWhen(access === 'full', 'key', FULL_ACCESS_PROOF_HINT);
  const { error, busy, run } = useAction(async () => (await apiKeysApi.createApiKey(props.companyId, { name, access, allowedIps: entriesOf(ips), ...proof })).data, props.onCreated);
  return (
    <Dialog title="Create API key" onClose={props.onClose}>
      <form onSubmit={run}>
        <label for="key-name">Name</label>
        <input id="key-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} placeholder="e.g. Checkout server" />
        <label for="key-access">Access</label>
        <select id="key-access" value={access} aria-describedby="key-access-hint" onChange={(e) => setAccess(e.currentTarget.value as ApiKey['access'])}>
          <option value="full">{ACCESS_LABELS.full}</option>
          <option value="read">{ACCESS_LABELS.read}</option>
        </select>
        <p class="hint" id="key-access-hint">
          A read-only key may only read (GET): give one to reporting and BI tools, so a leak cannot move money or change webhooks.
        </p>
        <AllowedIpsField value={ips} onInput={setIps} />
        {fields}
        <ErrorMessage error={error} />
        <DialogButtons label="Create" busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

/** The Allowed IPs field's lines (or commas) as entries. */
const entriesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function AllowedIpsField(props: { value: string; onInput: (value: string) => void }) {
  return (
    <>
      <label for="key-ips">Allowed IPs</label>
      <textarea id="key-ips" rows={3} value={props.value} aria-describedby="key-ips-hint" onInput={(e) => props.onInput(e.currentTarget.value)} class="mono" spellcheck={false} />
      <p class="hint" id="key-ips-hint">
        Optional: your servers' addresses or CIDR blocks, one a line (e.g. 203.0.113.0/24). A request from anywhere else is refused with 403. Empty: any address.
      </p>
    </>
  );
}

/** Where a key may be used from, changed without a new secret; in force within a minute (the API caches a key's check that long). */
function AllowedIpsDialog(props: { companyId: string; apiKey: ApiKey; onClose: () => void; onSaved: () => void }) {
  const [ips, setIps] = useState((props.apiKey.allowedIps ?? []).join('\n'));
  const { error, busy, run } = useAction(async () => (await apiKeysApi.changeAllowedIps(props.companyId, props.apiKey.keyId, entriesOf(ips))).data, props.onSaved);
  return (
    <Dialog title={`Allowed IPs of ${props.apiKey.name}`} onClose={props.onClose}>
      <form onSubmit={run}>
        <AllowedIpsField value={ips} onInput={setIps} />
        <p>The change applies to requests within a minute. The key and its secret stay the same.</p>
        <ErrorMessage error={error} />
        <DialogButtons label="Save allowed IPs" busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

function IssuedKeyDialog(props: { issued: IssuedKey; rolled: boolean; onDone: () => void }) {
  return (
    <ShownOnceDialog
      title={props.rolled ? 'New secret' : 'Your new API key'}
      warning="Copy the secret now: it is shown only this once. Store it where your server reads its secrets."
      fields={[
        { id: 'issued-key', label: 'API key', value: props.issued.apiKey },
        { id: 'issued-secret', label: 'API secret', value: props.issued.apiSecret },
      ]}
      onDone={props.onDone}
    />
  );
}

function RollDialog(props: { companyId: string; apiKey: ApiKey; onClose: () => void; onRolled: (issued: IssuedKey) => void }) {
  const [grace, setGrace] = useState<RollGrace>('24h');
  const { proof, fields } = useProofFieldsWhen(props.apiKey.access === 'full', 'roll', FULL_ACCESS_PROOF_HINT);
  const { error, busy, run } = useAction(async () => (await apiKeysApi.rollApiKey(props.companyId, props.apiKey.keyId, { oldSecretValidFor: grace, ...proof })).data, props.onRolled);
  // Only the two newest secrets ever work (functions/api-keys/api-keys.ts rollSecret).
  const previousValidUntil = stillAhead(props.apiKey.previousSecretExpiresAt);
  return (
    <Dialog title={`Roll the secret of ${props.apiKey.name}`} onClose={props.onClose}>
      <form onSubmit={run}>
        <p>A new secret is issued. The old one keeps working until the time you choose (a request made with it may still pass for up to a minute after, as after a revocation), so you can deploy the new one first.</p>
        {previousValidUntil && (
          <p role="alert">
            The secret replaced before the current one still works until {formatTime(previousValidUntil)}. Rolling again stops it within a minute (as a revocation): a system still using it is refused until it takes the new secret.
          </p>
        )}
        <label for="roll-expiry">Old secret expires</label>
        <select id="roll-expiry" value={grace} onChange={(e) => setGrace(e.currentTarget.value as RollGrace)}>
          {ROLL_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
        {fields}
        <ErrorMessage error={error} />
        <DialogButtons label="Roll secret" busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

