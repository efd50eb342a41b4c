import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { accountApi } from '../api/account.ts';
import { whenIdentityNeeded } from '../api/client.ts';
import { sessionApi } from '../api/session.ts';
import type { ProofRequest } from '../api/types.ts';
import { Dialog, DialogButtons, ErrorMessage, useAction } from './ui.tsx';

/**
 * The person's password again and, when they sign in with an authenticator app, its code: what
 * functions/people/step-up.ts checks, for `Confirm it's you` and `New withdrawal`. `fields` goes in
 * the dialog's form; `proof` in the request.
 */
export function useProofFields(idPrefix: string, hint?: string) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [twoFactor, setTwoFactor] = useState(false);
  useEffect(() => {
    accountApi.twoFactor().then(({ data }) => setTwoFactor(data.enabled), () => undefined);
  }, []);
  const proof = { password, ...(twoFactor && { code: code.trim() }) };
  const fields = (
    <>
      <label for={`${idPrefix}-password`}>Password</label>
      <input
        id={`${idPrefix}-password`}
        type="password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
        required
        autoComplete="current-password"
        aria-describedby={hint ? `${idPrefix}-password-hint` : undefined}
      />
      {hint && (
        <p class="hint" id={`${idPrefix}-password-hint`}>
          {hint}
        </p>
      )}
      {twoFactor && (
        <>
          <label for={`${idPrefix}-code`}>Authentication code</label>
          <input id={`${idPrefix}-code`} value={code} onInput={(e) => setCode(e.currentTarget.value)} required inputMode="numeric" autoComplete="one-time-code" maxLength={8} />
        </>
      )}
    </>
  );
  return { proof, fields };
}

/** useProofFields in a dialog that asks for them only sometimes (`asked`: a full-access key, a role
 * that raises): otherwise no fields, and nothing in the request. */
export function useProofFieldsWhen(asked: boolean, idPrefix: string, hint: string) {
  const { proof, fields } = useProofFields(idPrefix, hint);
  return asked ? { proof, fields } : { proof: {}, fields: null };
}

/** A dialog that asks for the proof (useProofFields) and sends it with `send`: what is asked, why, then the fields. */
export function ProofDialog(props: {
  title: string;
  idPrefix: string;
  label: string;
  danger?: boolean;
  send: (proof: ProofRequest) => Promise<unknown>;
  onDone: () => void;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const { proof, fields } = useProofFields(props.idPrefix);
  const { error, busy, run } = useAction(() => props.send(proof), props.onDone);
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form onSubmit={run}>
        {props.children}
        {fields}
        <ErrorMessage error={error} />
        <DialogButtons label={props.label} danger={props.danger} busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

/**
 * `Confirm it's you`: opened by any request a route refuses for want of a recent sign-in (what adds a
 * person, raises a role, mints a credential or changes where money or events go: the routes
 * functions/routes.ts marks `recentSignIn`, listed in docs/dashboard-api.md). The person gives
 * their password (and authenticator code); the session is signed in afresh and the request is
 * sent again. Cancel leaves the request refused, its dialog saying why.
 */
export function ConfirmIdentityHost() {
  const [pending, setPending] = useState<((confirmed: boolean) => void) | null>(null);
  useEffect(() => whenIdentityNeeded(() => new Promise<boolean>((resolve) => setPending(() => resolve))), []);
  if (!pending) return null;
  const finish = (confirmed: boolean) => {
    setPending(null);
    pending(confirmed);
  };
  return (
    <ProofDialog title="Confirm it’s you" idPrefix="confirm" label="Confirm" send={sessionApi.confirmSession} onDone={() => finish(true)} onClose={() => finish(false)}>
      <p>Issuing keys or secrets, changing the team or two-factor sign-in, and changing where money or events go ask for your password again when you signed in more than a few minutes ago.</p>
    </ProofDialog>
  );
}
