import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ErrorMessage, useTitle } from '../ui.tsx';

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

  useEffect(() => {
    api.twoFactor().then(({ data }) => setEnabled(data.enabled), setError);
  }, []);

  const start = async () => {
    setError(null);
    try {
      setSetup((await api.startTwoFactorSetup()).data);
    } catch (caught) {
      setError(caught);
    }
  };
  const confirm = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.confirmTwoFactor(String(new FormData(event.currentTarget as HTMLFormElement).get('code') ?? ''));
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
        {enabled === true && <p>On: signing in asks for a code from your authenticator app after your password.</p>}
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
    </>
  );
}
