import { useEffect, useState } from 'preact/hooks';
import { accountApi } from '../api/account.ts';
import { ProofDialog } from '../components/confirm-identity.tsx';
import { navigate } from '../router.ts';
import { ErrorMessage, useAction, useTitle } from '../components/ui.tsx';

/**
 * The signed-in person's own settings: two-factor sign-in with an authenticator app. The secret is
 * shown as text (and as an otpauth: link, which a phone opens in its authenticator app); no QR code
 * is drawn, as that would need a library for one screen.
 */
export function AccountPage(props: { email: string | null }) {
  useTitle('Account');
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [setup, setSetup] = useState<{ secret: string; uri: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [turningOff, setTurningOff] = useState(false);

  useEffect(() => {
    accountApi.twoFactor().then(({ data }) => setEnabled(data.enabled), setError);
  }, []);

  const start = async () => {
    setError(null);
    try {
      setSetup((await accountApi.startTwoFactorSetup()).data);
    } catch (caught) {
      setError(caught);
    }
  };
  const confirm = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await accountApi.confirmTwoFactor(String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? ''));
      setSetup(null);
      setEnabled(true);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>Account</h1>
      <p>Signed in as {props.email}.</p>
      <section aria-labelledby="two-factor-title">
        <h2 id="two-factor-title">Two-factor sign-in</h2>
        {enabled === null && !error && <p class="loading">Loading…</p>}
        {enabled === true && (
          <>
            <p>On: signing in asks for a code from your authenticator app after your password.</p>
            <button type="button" class="secondary" onClick={() => setTurningOff(true)}>
              Turn off two-factor sign-in
            </button>
          </>
        )}
        {turningOff && (
          <TurnOffTwoFactor
            onClose={() => setTurningOff(false)}
            onDone={() => {
              setTurningOff(false);
              setEnabled(false);
            }}
          />
        )}
        {enabled === false && !setup && (
          <>
            <p>Off. With it on, a stolen password is not enough to sign in as you and issue API keys.</p>
            <button type="button" onClick={start}>
              Set up two-factor sign-in
            </button>
          </>
        )}
        {enabled === false && setup && (
          <form onSubmit={confirm}>
            <p>
              In your authenticator app, add an account with this key (or <a href={setup.uri}>open it in the app</a>):
            </p>
            <p>
              <code class="secret" aria-label="Setup key">
                {setup.secret.match(/.{1,4}/g)!.join(' ')}
              </code>
            </p>
            <label for="code">Authentication code</label>
            <input id="code" name="code" required inputMode="numeric" pattern="[0-9 ]{6,7}" maxLength={7} autoComplete="one-time-code" />
            <button type="submit" disabled={busy}>
              Turn on
            </button>
          </form>
        )}
        <ErrorMessage error={error} />
      </section>
      <ChangePassword />
    </>
  );
}

/** Turning it off asks for what signing in does, the password and a code: a session alone (a cookie
 * copied from a browser) cannot take the second factor away. */
function TurnOffTwoFactor(props: { onClose: () => void; onDone: () => void }) {
  return (
    <ProofDialog title="Turn off two-factor sign-in" idPrefix="turn-off" label="Turn off" danger send={accountApi.turnOffTwoFactor} onDone={props.onDone} onClose={props.onClose}>
      <p>Signing in will ask for your password alone. A company that requires two-factor sign-in keeps it on until an Owner stops requiring it.</p>
    </ProofDialog>
  );
}

/** The person's own password, with the current one; every session of theirs then ends, this one too. */
function ChangePassword() {
  const [passwords, setPasswords] = useState({ currentPassword: '', newPassword: '' });
  const { error, busy, run } = useAction(() => accountApi.changePassword(passwords), () => navigate('/sign-in?password=changed', true));
  const field = (name: keyof typeof passwords) => ({
    name,
    value: passwords[name],
    onInput: (event: Event) => setPasswords({ ...passwords, [name]: (event.currentTarget as HTMLInputElement).value }),
  });
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <p>Changing it signs you out everywhere, here too: you sign in again with the new one.</p>
      <form onSubmit={run}>
        <label for="current-password">Current password</label>
        <input id="current-password" type="password" required autoComplete="current-password" {...field('currentPassword')} />
        <label for="new-password">New password</label>
        <input id="new-password" type="password" required minLength={10} autoComplete="new-password" aria-describedby="new-password-rule" {...field('newPassword')} />
        <p id="new-password-rule" class="hint">
          At least 10 characters, with a lowercase and an uppercase letter, a number and a symbol.
        </p>
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          Change password
        </button>
      </form>
    </section>
  );
}
