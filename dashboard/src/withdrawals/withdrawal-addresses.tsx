import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { withdrawalsApi } from '../api/withdrawals.ts';
import type { AllowedAddress, Role, WithdrawalAllowlist } from '../api/types.ts';
import { ConfirmDialog, Dialog, DialogButtons, ErrorMessage, formatTime, SectionHead, Table, useAction, useLoaded } from '../components/ui.tsx';
import { DEFAULT_NETWORK, type NetworkName } from '../../../functions/networks/names.ts';
import { addressPlaceholder, NetworkChoice, networkTitle } from './network-choice.tsx';

type Open = { kind: 'add' } | { kind: 'turn-off' } | { kind: 'remove'; entry: AllowedAddress } | null;

/** "after 24 hours", or "at once" where the stage has no waiting period (local, sandbox): the
 * allowlist's and the daily limit's widening changes wait the same. */
export const waitText = (hours: number) => (hours === 0 ? 'at once' : `after ${hours} hour${hours === 1 ? '' : 's'}`);

/**
 * Confirms a widening change, the allowlist turned off or the daily limit removed: `children` say
 * what it allows and when (waitText); the dialog adds that Owners and Admins are emailed, as the API
 * mails them for each. It closes once `action` has made the change.
 */
export function WideningChangeDialog(props: { title: string; label: string; action: () => Promise<unknown>; onClose: () => void; children: ComponentChildren }) {
  return (
    <ConfirmDialog title={props.title} label={props.label} danger action={props.action} onDone={props.onClose} onClose={props.onClose}>
      <p>{props.children} Owners and Admins are emailed.</p>
    </ConfirmDialog>
  );
}

/**
 * Integrations → `Withdrawal addresses` (docs/dashboard-api.md, Withdrawal allowlist): the switch and
 * the addresses money may leave for while it is on. Owners and Admins change it (`manageAddresses`);
 * Developers, who hold the API keys, and Viewers only read it. The API checks all of it again.
 */
export function WithdrawalAddresses(props: { companyId: string; role: Role }) {
  const { data: allowlist, setData, error, reload } = useLoaded(async () => (await withdrawalsApi.withdrawalAllowlist(props.companyId)).data, [props.companyId]);
  const [open, setOpen] = useState<Open>(null);
  const canManage = props.role === 'Owner' || props.role === 'Admin';
  const turnOn = useAction(async () => (await withdrawalsApi.switchWithdrawalAllowlist(props.companyId, true)).data, setData);
  const done = () => {
    setOpen(null);
    void reload();
  };

  return (
    <section class="allowlist" aria-labelledby="withdrawal-addresses-title">
      <SectionHead title="Withdrawal addresses" id="withdrawal-addresses-title" level={2} action={canManage && allowlist !== null && { label: 'Add address', onClick: () => setOpen({ kind: 'add' }) }} />
      <ErrorMessage error={error} />
      {allowlist === null ? (
        !error && <p class="loading">Loading…</p>
      ) : (
        <>
          <p>
            While the allowlist is on, withdrawals and deposit splits may go only to these addresses, each on its network. An added address becomes usable {waitText(allowlist.delayHours)}
            {allowlist.delayHours > 0 && ', and turning the allowlist off waits as long'}; removing one or turning the allowlist on acts at once. Owners and Admins are emailed each
            address added and each turn-off.{!canManage && ' Only Owners and Admins may change this list.'}
          </p>
          <div class="allowlist-switch">
            <p role="status">
              <AllowlistStatus allowlist={allowlist} />
            </p>
            {canManage &&
              (allowlist.enabled && !allowlist.turnsOffAt ? (
                <button type="button" class="danger" onClick={() => setOpen({ kind: 'turn-off' })}>
                  Turn off allowlist
                </button>
              ) : (
                <button type="button" class="secondary" disabled={turnOn.busy} onClick={() => void turnOn.run()}>
                  {allowlist.turnsOffAt ? 'Keep allowlist on' : 'Turn on allowlist'}
                </button>
              ))}
          </div>
          <ErrorMessage error={turnOn.error} />
          <Table
            labelledBy="withdrawal-addresses-title"
            columns={['Label', 'Network', 'Address', 'Added by', 'Added', 'Usable from', canManage && 'Actions']}
            rows={allowlist.addresses}
            empty="No address yet."
            row={(entry) => (
              <tr key={`${entry.network}:${entry.address}`}>
                <th scope="row">{entry.label}</th>
                <td>
                  {networkTitle(entry.network)}
                  {/* An EVM address added before entries named a network allows none until it is added again with its network. */}
                  {entry.network === null && <span class="hint"> (add it again with its network)</span>}
                </td>
                <td>
                  <code>{entry.address}</code>
                </td>
                <td>{entry.addedBy ?? 'Command line'}</td>
                <td>{formatTime(entry.createdAt)}</td>
                <td>
                  {formatTime(entry.activeFrom)}
                  {!entry.active && <span class="hint"> (waiting)</span>}
                </td>
                {canManage && (
                  <td class="actions">
                    <button type="button" class="danger" aria-label={`Remove ${entry.label}`} onClick={() => setOpen({ kind: 'remove', entry })}>
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            )}
          />
          {allowlist.addresses.length > 0 && (
            <p class="hint">
              {allowlist.addresses.length} of {allowlist.limit} addresses.
            </p>
          )}
        </>
      )}
      {open?.kind === 'add' && allowlist && <AddAddressDialog companyId={props.companyId} wait={waitText(allowlist.delayHours)} onClose={() => setOpen(null)} onAdded={done} />}
      {open?.kind === 'turn-off' && allowlist && (
        <WideningChangeDialog
          title="Turn off the withdrawal allowlist?"
          label="Turn off allowlist"
          action={async () => setData((await withdrawalsApi.switchWithdrawalAllowlist(props.companyId, false)).data)}
          onClose={() => setOpen(null)}
        >
          Withdrawals and deposit splits may then go to any address, {waitText(allowlist.delayHours)}
          {allowlist.delayHours > 0 && ' (the list holds until then)'}.
        </WideningChangeDialog>
      )}
      {open?.kind === 'remove' && (
        <ConfirmDialog
          title={`Remove ${open.entry.label}?`}
          label="Remove"
          danger
          action={() => withdrawalsApi.removeWithdrawalAddress(props.companyId, open.entry.network, open.entry.address)}
          onDone={done}
          onClose={() => setOpen(null)}
        >
          <p>
            While the allowlist is on, withdrawals and new deposit splits to <code>{open.entry.address}</code>{open.entry.network && ` on ${networkTitle(open.entry.network)}`} are refused at once, and deposits that split to it keep the share in your balance. Added again, it is usable {waitText(allowlist?.delayHours ?? 0)}.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function AllowlistStatus(props: { allowlist: WithdrawalAllowlist }) {
  const { enabled, turnsOffAt } = props.allowlist;
  if (!enabled) return <strong>Allowlist off</strong>;
  return (
    <>
      <strong class="status active">Allowlist on</strong>
      {turnsOffAt && <span>, turns off at {formatTime(turnsOffAt)}</span>}
    </>
  );
}

function AddAddressDialog(props: { companyId: string; wait: string; onClose: () => void; onAdded: () => void }) {
  const [label, setLabel] = useState('');
  const [network, setNetwork] = useState<NetworkName>(DEFAULT_NETWORK);
  const [address, setAddress] = useState('');
  const { error, busy, run } = useAction(() => withdrawalsApi.addWithdrawalAddress(props.companyId, { network, address, label }), props.onAdded);
  return (
    <Dialog title="Add address" onClose={props.onClose}>
      <form onSubmit={run}>
        <label for="allowlist-label">Label</label>
        <input id="allowlist-label" value={label} onInput={(e) => setLabel(e.currentTarget.value)} required maxLength={64} placeholder="e.g. Treasury wallet" />
        <NetworkChoice id="allowlist-network" value={network} onChange={setNetwork} />
        <label for="allowlist-address">Address</label>
        <input
          id="allowlist-address"
          class="mono"
          value={address}
          onInput={(e) => setAddress(e.currentTarget.value)}
          required
          maxLength={64}
          autoComplete="off"
          spellcheck={false}
          placeholder={addressPlaceholder(network)}
          aria-describedby="allowlist-address-hint"
        />
        <p id="allowlist-address-hint" class="hint">
          An address on {networkTitle(network)}, for withdrawals on {networkTitle(network)} only, usable {props.wait}. Owners and Admins are emailed.
        </p>
        <ErrorMessage error={error} />
        <DialogButtons label="Add" busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}
