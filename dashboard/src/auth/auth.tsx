import { useEffect, useState } from 'preact/hooks';
import { ApiCallError } from '../api/client.ts';
import { sessionApi } from '../api/session.ts';
import { navigate } from '../router.ts';
import { ErrorMessage, Link, useTitle } from '../components/ui.tsx';

function useSubmit(action: (form: FormData) => Promise<unknown>, onDone: () => void) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action(new FormData(event.currentTarget as HTMLFormElement));
      onDone();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, onSubmit };
}

const value = (form: FormData, name: string) => String(form.get(name) ?? '');

/** A form that mails a link to its `email`: the address it went to once sent (null before), and the form's state. */
function useLinkMailer(send: (form: FormData) => Promise<unknown>) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const submit = useSubmit(async (form) => {
    await send(form);
    setSentTo(value(form, 'email'));
  }, () => undefined);
  return { sentTo, ...submit };
}

/** The page of a mailed link (its `token` in the URL): a form that sends the token with the password entered. */
function useLinkPassword(send: (input: { token: string; password: string }) => Promise<unknown>, onDone: () => void) {
  const [token] = useState(() => {
    const mailed = new URLSearchParams(location.search).get('token') ?? '';
    // Read once, then out of the address bar: left there, the browser's history (and any screenshot
    // of the page) would keep a working reset or invitation link until it lapses.
    if (mailed) history.replaceState(history.state, '', location.pathname);
    return mailed;
  });
  return useSubmit((form) => send({ token, password: value(form, 'password') }), onDone);
}

type Stage = Awaited<ReturnType<typeof sessionApi.stage>>['data'];

/** What this stage offers signed-out people, once known: a page offers nothing the stage would refuse. */
function useStage(): Stage | null {
  const [stage, setStage] = useState<Stage | null>(null);
  useEffect(() => {
    sessionApi.stage().then(({ data }) => setStage(data), () => setStage(null));
  }, []);
  return stage;
}

/** A form's end: what went wrong, if anything, and its button, off while the request runs. */
function Submit(props: { label: string; error: unknown; busy: boolean }) {
  return (
    <>
      <ErrorMessage error={props.error} />
      <button type="submit" disabled={props.busy}>
        {props.label}
      </button>
    </>
  );
}

/** The address an account signs in with, filled as the browser's password manager saved it. */
function AccountEmailField() {
  return (
    <>
      <label for="email">Email</label>
      <input id="email" name="email" type="email" required autoComplete="username" />
    </>
  );
}

/** The account's present password, which the browser's password manager may fill. */
function CurrentPasswordField() {
  return (
    <>
      <label for="password">Password</label>
      <input id="password" name="password" type="password" required autoComplete="current-password" />
    </>
  );
}

/** A password being chosen, with the pool's policy said before it is submitted. */
function NewPasswordField(props: { label?: string }) {
  return (
    <>
      <label for="password">{props.label ?? 'Password'}</label>
      <input id="password" name="password" type="password" required minLength={10} autoComplete="new-password" aria-describedby="password-rule" />
      <p id="password-rule" class="hint">
        At least 10 characters, with a lowercase and an uppercase letter, a number and a symbol.
      </p>
    </>
  );
}

/** After Create account (or a sign-in refused for an unconfirmed address): where the link went,
 * and a way to have it sent again. The page says the same whether or not the address had an account. */
function CheckYourMail(props: { email: string }) {
  useTitle('Check your mail');
  const [sentAgain, setSentAgain] = useState(false);
  const resend = useSubmit(() => sessionApi.resendSignUpLink({ email: props.email }), () => setSentAgain(true));
  return (
    <section class="card" aria-labelledby="check-mail-title">
      <h1 id="check-mail-title">Check your mail</h1>
      <p role="status">
        We mailed a link to {props.email}. Follow it to confirm your email and sign in: your account cannot be used before. If the address already has a Cambio account, the mail says so instead.
      </p>
      {sentAgain && <p role="status" class="notice">Sent again: only the newest link works.</p>}
      <form onSubmit={resend.onSubmit}>
        <Submit label="Send the link again" error={resend.error} busy={resend.busy} />
      </form>
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </section>
  );
}

export function SignUp() {
  useTitle('Sign up');
  const stage = useStage();
  const { sentTo, error, busy, onSubmit } = useLinkMailer((form) =>
    sessionApi.signUp({ companyName: value(form, 'companyName'), email: value(form, 'email'), password: value(form, 'password') }),
  );
  if (sentTo !== null) return <CheckYourMail email={sentTo} />;
  if (stage && !stage.selfSignUp) {
    return (
      <section class="card" aria-labelledby="sign-up-title">
        <h1 id="sign-up-title">Sign-up is by invitation</h1>
        <p>This is a production dashboard: each person joins a company through an invitation from its Owner or Admin. Try Cambio first in the sandbox dashboard.</p>
        <p>
          <Link to="/sign-in">Sign in</Link>
        </p>
      </section>
    );
  }
  return (
    <section class="card" aria-labelledby="sign-up-title">
      <h1 id="sign-up-title">Create your sandbox account</h1>
      <p>A sandbox company of your own, with test USDT and API keys, in a minute.</p>
      <form onSubmit={onSubmit}>
        <label for="company-name">Company name</label>
        <input id="company-name" name="companyName" required maxLength={200} autoComplete="organization" />
        <label for="email">Email</label>
        <input id="email" name="email" type="email" required autoComplete="email" />
        <NewPasswordField />
        <Submit label="Create account" error={error} busy={busy} />
      </form>
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}

export function SignIn(props: { onSignedIn: () => void }) {
  useTitle('Sign in');
  const stage = useStage();
  // After the password of someone with two-factor sign-in on: the authenticator app's code.
  const [askCode, setAskCode] = useState(false);
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);
  const password = useSubmit(
    async (form) => {
      const email = value(form, 'email');
      const { data } = await sessionApi.signIn({ email, password: value(form, 'password') }).catch((error: unknown) => {
        if (error instanceof ApiCallError && error.failure.reason === 'EMAIL_NOT_VERIFIED') setUnconfirmed(email);
        throw error;
      });
      if (data.signedIn) props.onSignedIn();
      else setAskCode(true);
    },
    () => undefined,
  );
  const code = useSubmit((form) => sessionApi.signInCode(value(form, 'code')), props.onSignedIn);
  if (unconfirmed !== null) return <CheckYourMail email={unconfirmed} />;
  if (askCode) {
    return (
      <section class="card" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Two-factor sign-in</h1>
        <p>Enter the 6-digit code your authenticator app shows for Cambio.</p>
        <form onSubmit={code.onSubmit}>
          <label for="code">Authentication code</label>
          <input id="code" name="code" required inputMode="numeric" pattern="[0-9 ]{6,7}" maxLength={7} autoComplete="one-time-code" autoFocus />
          <Submit label="Verify" error={code.error} busy={code.busy} />
        </form>
        {code.error !== null && (
          <p>
            <button type="button" class="secondary" onClick={() => setAskCode(false)}>
              Sign in again
            </button>
          </p>
        )}
      </section>
    );
  }
  // After a new password (a reset by mail, or Account's change), which ended every session.
  const newPassword = new URLSearchParams(location.search).get('password');
  return (
    <section class="card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Cambio</h1>
      {(newPassword === 'reset' || newPassword === 'changed') && (
        <p role="status" class="notice">
          Your password is changed and every session of yours has ended: sign in with the new one.
        </p>
      )}
      <form onSubmit={password.onSubmit}>
        <AccountEmailField />
        <CurrentPasswordField />
        <Submit label="Sign in" error={password.error} busy={password.busy} />
      </form>
      {stage?.passwordResetByMail && (
        <p>
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
      )}
      {stage?.selfSignUp && (
        <p>
          New here? <Link to="/sign-up">Create a sandbox account</Link>
        </p>
      )}
    </section>
  );
}

/** `Forgot your password?`: the page says the same whether or not an account uses the address. */
export function ForgotPassword() {
  useTitle('Reset your password');
  const stage = useStage();
  const { sentTo, error, busy, onSubmit } = useLinkMailer((form) => sessionApi.requestPasswordReset({ email: value(form, 'email') }));
  return (
    <section class="card" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Reset your password</h1>
      {stage && !stage.passwordResetByMail ? (
        <p>This dashboard sends no mail, so a password cannot be reset here: ask your Cambio operator.</p>
      ) : sentTo === null ? (
        <>
          <p>We mail a link to choose a new password to the address of your account.</p>
          <form onSubmit={onSubmit}>
            <AccountEmailField />
            <Submit label="Send reset link" error={error} busy={busy} />
          </form>
        </>
      ) : (
        <p role="status">
          If a Cambio account uses {sentTo}, we have mailed it a link to choose a new password. The link works once, for an hour; asking again sends a new one after a minute.
        </p>
      )}
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </section>
  );
}

/** The mailed link's page: a new password, then sign in with it. */
export function ResetPassword() {
  useTitle('Choose a new password');
  const { error, busy, onSubmit } = useLinkPassword(sessionApi.resetPassword, () => navigate('/sign-in?password=reset', true));
  return (
    <section class="card" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      <p>It replaces your old password and signs you out everywhere. Two-factor sign-in, if you use it, stays on.</p>
      <form onSubmit={onSubmit}>
        <NewPasswordField label="New password" />
        <Submit label="Set password" error={error} busy={busy} />
      </form>
      <p>
        <Link to="/forgot-password">Ask for a new link</Link>
      </p>
    </section>
  );
}

/** The sign-up's mailed link: the password chosen at sign-up confirms the address, then signs in. */
export function VerifyEmail(props: { onSignedIn: () => void }) {
  useTitle('Confirm your email');
  const { error, busy, onSubmit } = useLinkPassword(sessionApi.verifyEmail, props.onSignedIn);
  const lapsed = error instanceof ApiCallError && error.failure.status === 404;
  return (
    <section class="card" aria-labelledby="verify-title">
      <h1 id="verify-title">{lapsed ? 'This link has been used or has lapsed' : 'Confirm your email'}</h1>
      {lapsed ? (
        <p>Sign in if you confirmed your email already; otherwise sign in to have a new link sent, or sign up again.</p>
      ) : (
        <>
          <p>Enter the password you chose when you signed up: it confirms this address is yours and signs you in.</p>
          <form onSubmit={onSubmit}>
            <CurrentPasswordField />
            <Submit label="Confirm and sign in" error={error} busy={busy} />
          </form>
        </>
      )}
      <p>
        <Link to="/sign-in">Sign in</Link>
      </p>
    </section>
  );
}

/** `onSignedIn(companyId)`: the company joined, which the shell opens. */
export function AcceptInvitation(props: { onSignedIn: (companyId: string) => void }) {
  useTitle('Accept invitation');
  let joined = '';
  const accept = async (input: { token: string; password: string }) => {
    joined = (await sessionApi.acceptInvitation(input)).data.companyId;
  };
  const { error, busy, onSubmit } = useLinkPassword(accept, () => props.onSignedIn(joined));
  return (
    <section class="card" aria-labelledby="accept-title">
      <h1 id="accept-title">Join your company on Cambio</h1>
      <p>Choose a password for the email address you were invited with. If you already have a Cambio account with it, enter that account's password.</p>
      <form onSubmit={onSubmit}>
        <NewPasswordField />
        <Submit label="Accept invitation" error={error} busy={busy} />
      </form>
    </section>
  );
}
