import { useState } from 'preact/hooks';
import { ApiCallError } from '../api/client.ts';
import { withdrawalsApi } from '../api/withdrawals.ts';
import { useProofFields } from '../components/confirm-identity.tsx';
import { Dialog, DialogButtons, ErrorMessage, useAction } from '../components/ui.tsx';
import { DEFAULT_NETWORK, type NetworkName } from '../../../functions/networks/names.ts';
import { addressPlaceholder, NetworkChoice, networkTitle } from './network-choice.tsx';

/** A reference made when the dialog opens: submitting the same form twice is refused as a
 * duplicate reference by the API, so a double click never sends twice. */
const newReference = () => `dashboard-${Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** No answer says whether the withdrawal was made: the connection failed, the server failed after
 * it may have written (a 5xx), or an answer of success came unreadable. Only a 4xx says nothing was
 * made; else the same reference sent again tells, safely. */
const answerLost = (error: unknown) => !(error instanceof ApiCallError) || error.failure.status < 400 || error.failure.status >= 500;

/** The withdrawal a 409 DUPLICATE_REFERENCE names (functions/shared/errors.ts duplicateReference). */
function existingWithdrawal(error: unknown): string | null {
  if (!(error instanceof ApiCallError) || error.failure.code !== 'DUPLICATE_REFERENCE') return null;
  const details = error.failure.details;
  const id = details && !Array.isArray(details) ? details.existingId : null;
  return typeof id === 'string' ? id : null;
}

/** Activity → Withdrawals → `New withdrawal` (docs/dashboard-api.md): USDT to an address on the chosen
 * network (TRON by default), as POST /v1/withdrawals sends it, the fee on top and the withdrawal
 * allowlist applied, confirmed with the person's password and, when they sign in with an
 * authenticator app, its code. `onSent` gets the withdrawal's id. */
export function NewWithdrawalDialog(props: { companyId: string; onClose: () => void; onSent: (withdrawalId: string) => void }) {
  const [network, setNetwork] = useState<NetworkName>(DEFAULT_NETWORK);
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState(newReference);
  // A send of `reference` whose answer was lost may have made the withdrawal: from then on the
  // reference stays as it is, so sending again is answered 409 with that withdrawal, never paid twice.
  // The network, address and amount stay too: sent again, that 409 opens the withdrawal that went, so
  // a corrected amount or address would look sent while the first one's went.
  const [maybeSent, setMaybeSent] = useState(false);
  const { proof, fields } = useProofFields('withdrawal', 'Yours, again: money leaves only when the person signed in confirms it.');
  const { error, busy, run } = useAction(async () => {
    try {
      return (await withdrawalsApi.sendWithdrawal(props.companyId, { network, address: address.trim(), amount: amount.trim(), reference, ...proof })).data.id;
    } catch (caught) {
      // Only this dialog's own earlier send is taken for the withdrawal: a reference typed in that
      // another withdrawal already holds stays a refusal.
      const existingId = maybeSent ? existingWithdrawal(caught) : null;
      if (existingId) return existingId;
      if (answerLost(caught)) setMaybeSent(true);
      throw caught;
    }
  }, props.onSent);
  const lost = maybeSent && answerLost(error);
  const explained = lost ? 'withdrawal-maybe-sent' : undefined;
  return (
    <Dialog title="New withdrawal" onClose={props.onClose}>
      <form onSubmit={run}>
        <p>USDT on {networkTitle(network)} from the available balance; the network fee is added to the amount. While the withdrawal allowlist is on, only its addresses on that network are accepted.</p>
        {maybeSent ? (
          // A select cannot be read-only, and a disabled one drops out of the tab order with its explanation.
          <>
            <label for="withdrawal-network">Network</label>
            <input id="withdrawal-network" value={networkTitle(network)} readOnly aria-describedby={explained} />
          </>
        ) : (
          <NetworkChoice id="withdrawal-network" value={network} onChange={setNetwork} />
        )}
        <label for="withdrawal-address">Address</label>
        <input id="withdrawal-address" class="mono" value={address} onInput={(e) => setAddress(e.currentTarget.value)} required maxLength={64} autoComplete="off" spellcheck={false} placeholder={addressPlaceholder(network)} readOnly={maybeSent} aria-describedby={explained} />
        <label for="withdrawal-amount">Amount (USDT)</label>
        <input id="withdrawal-amount" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required inputMode="decimal" autoComplete="off" placeholder="e.g. 250.00" readOnly={maybeSent} aria-describedby={explained} />
        <label for="withdrawal-reference">Reference</label>
        <input id="withdrawal-reference" value={reference} onInput={(e) => setReference(e.currentTarget.value)} required maxLength={128} readOnly={maybeSent} aria-describedby={explained} />
        {fields}
        {lost ? (
          <div class="error" role="alert" id="withdrawal-maybe-sent">
            {error instanceof ApiCallError && <p>{error.failure.message}</p>}
            <p>
              No answer came back, so this withdrawal may have been sent. Send withdrawal again: it keeps the reference <code>{reference}</code>, so it is never sent twice, and opens the withdrawal if it went.
            </p>
            <p>The network, address and amount stay as they were sent. To send a different withdrawal instead, cancel: Withdrawals then lists this one if it went.</p>
          </div>
        ) : (
          <ErrorMessage error={error} />
        )}
        <DialogButtons label="Send withdrawal" busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}
