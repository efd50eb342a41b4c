import { useState } from 'preact/hooks';
import { withdrawalsApi } from '../api/withdrawals.ts';
import type { Role } from '../api/types.ts';
import { ErrorMessage, formatTime, useAction, useLoaded } from '../components/ui.tsx';
import { waitText, WideningChangeDialog } from './withdrawal-addresses.tsx';

/**
 * Integrations → `Daily withdrawal limit` (docs/dashboard-api.md): what the company's withdrawals
 * may take in a UTC day. Owners and Admins change it (`manageAddresses`); a lower limit acts at
 * once, a higher one or none after the waiting period. The API checks all of it again.
 */
export function DailyWithdrawalLimit(props: { companyId: string; role: Role }) {
  const { data: limit, setData, error } = useLoaded(async () => (await withdrawalsApi.withdrawalLimit(props.companyId)).data, [props.companyId]);
  const [amount, setAmount] = useState('');
  const [removing, setRemoving] = useState(false);
  const canManage = props.role === 'Owner' || props.role === 'Admin';
  const save = useAction(async () => (await withdrawalsApi.changeWithdrawalLimit(props.companyId, amount.trim())).data, (changed) => {
    setData(changed);
    setAmount('');
  });
  const wait = waitText(limit?.delayHours ?? 0);

  return (
    <section class="withdrawal-limit" aria-labelledby="withdrawal-limit-title">
      <h2 id="withdrawal-limit-title">Daily withdrawal limit</h2>
      <ErrorMessage error={error} />
      {limit === null ? (
        !error && <p class="loading">Loading…</p>
      ) : (
        <>
          <p>
            The USDT the company's withdrawals may take in a UTC day, by API key or from this dashboard, counted while a limit is in force. A lower limit acts at once; a higher one, or
            none, {wait}, and Owners and Admins are emailed.{!canManage && ' Only Owners and Admins may change it.'}
          </p>
          <p role="status">
            <strong>{limit.dailyLimit === null ? 'No limit' : `${limit.dailyLimit} USDT a day`}</strong>
            {limit.sentToday !== null && <span>, {limit.sentToday} USDT of it used today</span>}
            {limit.pending && <span>; {limit.pending.dailyLimit === null ? 'no limit' : `${limit.pending.dailyLimit} USDT a day`} from {formatTime(limit.pending.from)}</span>}
          </p>
          {canManage && (
            <form class="inline-form" onSubmit={save.run}>
              <div>
                <label for="daily-limit">Daily limit (USDT)</label>
                <input id="daily-limit" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required inputMode="decimal" autoComplete="off" placeholder="e.g. 5000" />
              </div>
              <div class="buttons">
                <button type="submit" disabled={save.busy}>
                  Save limit
                </button>
                {(limit.dailyLimit !== null || limit.pending?.dailyLimit != null) && (
                  <button type="button" class="danger" onClick={() => setRemoving(true)}>
                    Remove limit
                  </button>
                )}
              </div>
            </form>
          )}
          <ErrorMessage error={save.error} />
        </>
      )}
      {removing && (
        <WideningChangeDialog
          title="Remove the daily withdrawal limit?"
          label="Remove limit"
          action={async () => setData((await withdrawalsApi.changeWithdrawalLimit(props.companyId, null)).data)}
          onClose={() => setRemoving(false)}
        >
          Withdrawals may then take any amount a day, {wait}.
        </WideningChangeDialog>
      )}
    </section>
  );
}
