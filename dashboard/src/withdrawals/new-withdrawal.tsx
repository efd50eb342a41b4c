import { useState } from 'preact/hooks';
import { withdrawalsApi } from '../api/withdrawals.ts';
import type { WithdrawalSent } from '../api/types.ts';
import { useProofFields } from '../components/confirm-identity.tsx';
import { Dialog, DialogButtons, ErrorMessage, useAction } from '../components/ui.tsx';
import { DEFAULT_NETWORK, type NetworkName } from '../../../functions/networks/names.ts';
import { addressPlaceholder, NetworkChoice, networkTitle } from './network-choice.tsx';

/** A reference made when the dialog opens: submitting the same form twice is refused as a
 * duplicate reference by the API, so a double click never sends twice. */
const newReference = () => `dashboard-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** Activity → Withdrawals → `New withdrawal` (docs/dashboard-api.md): USDT to an address on the chosen
 * network (TRON by default), as POST /v1/withdrawals sends it, the fee on top and the withdrawal
 * allowlist applied, confirmed with the person's password and, when they sign in with an
 * authenticator app, its code. */
export function NewWithdrawalDialog(props: { companyId: string; onClose: () => void; onSent: (withdrawal: WithdrawalSent) => void }) {
  const [network, setNetwork] = useState<NetworkName>(DEFAULT_NETWORK);
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState(newReference);
  const { proof, fields } = useProofFields('withdrawal', 'Yours, again: money leaves only when the person signed in confirms it.');
  const { error, busy, run } = useAction(
    async () => (await withdrawalsApi.sendWithdrawal(props.companyId, { network, address: address.trim(), amount: amount.trim(), reference, ...proof })).data,
    props.onSent,
  );
  return (
    <Dialog title="New withdrawal" onClose={props.onClose}>
      <form onSubmit={run}>
        <p>USDT on {networkTitle(network)} from the available balance; the network fee is added to the amount. While the withdrawal allowlist is on, only its addresses on that network are accepted.</p>
        <NetworkChoice id="withdrawal-network" value={network} onChange={setNetwork} />
        <label for="withdrawal-address">Address</label>
        <input id="withdrawal-address" class="mono" value={address} onInput={(e) => setAddress(e.currentTarget.value)} required maxLength={64} autoComplete="off" spellcheck={false} placeholder={addressPlaceholder(network)} />
        <label for="withdrawal-amount">Amount (USDT)</label>
        <input id="withdrawal-amount" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required inputMode="decimal" autoComplete="off" placeholder="e.g. 250.00" />
        <label for="withdrawal-reference">Reference</label>
        <input id="withdrawal-reference" value={reference} onInput={(e) => setReference(e.currentTarget.value)} required maxLength={128} />
        {fields}
        <ErrorMessage error={error} />
        <DialogButtons label="Send withdrawal" busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}
