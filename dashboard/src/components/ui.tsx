import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiCallError } from '../api/client.ts';
import { BASE_PATH, onLinkClick, onRowClick } from '../router.ts';

export function Link(props: { to: string; children: ComponentChildren; current?: boolean; class?: string }) {
  return (
    <a href={BASE_PATH + props.to} class={props.class} aria-current={props.current ? 'page' : undefined} onClick={(e) => onLinkClick(e, props.to)}>
      {props.children}
    </a>
  );
}

/**
 * A table row that opens `to` when clicked anywhere. It holds a Link to the same place, which stays
 * the way in for keyboards, screen readers and new tabs: the row itself is no tab stop.
 */
export function LinkedRow(props: { to: string; children: ComponentChildren }) {
  return (
    <tr class="linked" onClick={(e) => onRowClick(e, props.to)}>
      {props.children}
    </tr>
  );
}

/** An error said where a screen reader announces it, with each field's problem. */
export function ErrorMessage(props: { error: unknown }) {
  if (!props.error) return null;
  const failure = props.error instanceof ApiCallError ? props.error.failure : null;
  // Only field errors are listed; other details (LIMIT_REACHED's figures, a duplicate's id) are in the message already.
  const fields = failure && Array.isArray(failure.details) ? failure.details : null;
  return (
    <div class="error" role="alert">
      <p>{failure?.message ?? 'Something went wrong. Try again.'}</p>
      {failure?.reason === 'TWO_FACTOR_REQUIRED' && (
        <p>
          <Link to="/account">Turn on two-factor sign-in under Account</Link>
        </p>
      )}
      {fields && (
        <ul>
          {fields.map((d) => (
            <li key={d.path}>
              {fieldLabel(d.path)} {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const LABELS: Record<string, string> = { companyName: 'Company name', email: 'Email', password: 'Password', name: 'Name', code: 'Authentication code', currentPassword: 'Current password', newPassword: 'New password', address: 'Address', label: 'Label', amount: 'Amount', reference: 'Reference', allowedIps: 'Allowed IPs', dailyLimit: 'Daily limit' };
/** `allowedIps.2` is the Allowed IPs field's third line: the message names the entry. */
const fieldLabel = (path: string) => LABELS[path] ?? LABELS[path.split('.')[0]!] ?? path;

/**
 * A modal dialog on the native <dialog>: the browser traps focus inside, Escape closes it, and
 * focus returns to what opened it.
 */
export function Dialog(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  // Its own id: `Confirm it's you` opens over another dialog.
  const titleId = `dialog-title-${useId()}`;
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), props.onClose())}>
      <h2 id={titleId}>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

export function formatTime(iso: string | null): string {
  if (!iso) return 'Never';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** `iso` while it is still ahead, else null: a previous secret's grace still running. */
export const stillAhead = (iso: string | null | undefined): string | null => (iso && Date.parse(iso) > Date.now() ? iso : null);

export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Cambio dashboard`;
  }, [title]);
}

/**
 * What a page shows, loaded when it opens and again when `deps` change: null until it arrives, the
 * error kept to show. `reload` loads it again after a change the page made.
 *
 * Only the latest load's answer is shown. Loads overlap (a resend reloads the team, then the revoke
 * after it does), and an earlier answer arriving last would bring back what the later change removed.
 * `reloading`: what is shown predates the page's last change, so its rows' actions wait (a resent
 * invitation has a new id: Revoke on the old row would aim at the one the resend replaced).
 */
export function useLoaded<T>(load: () => Promise<T>, deps: unknown[]) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reloading, setReloading] = useState(false);
  const latest = useRef(0);
  const reload = () => {
    const call = ++latest.current;
    setReloading(true);
    return load().then(
      (loaded) => {
        if (call !== latest.current) return;
        setData(loaded);
        setReloading(false);
      },
      (failure: unknown) => {
        if (call !== latest.current) return;
        setError(failure);
        setReloading(false);
      },
    );
  };
  useEffect(() => {
    void reload();
  }, deps);
  return { data, setData, error, setError, reload, reloading };
}

/**
 * A section's heading with the one action it offers beside it: the page's title (`h1`, the id
 * `page-title` the page's landmark is named by) or a part's (`h2`, its own id). `action` is false
 * for a person who may not take it, so no button shows.
 */
export function SectionHead(props: { title: string; id?: string; level?: 1 | 2; action: { label: string; onClick: () => void } | false }) {
  const Heading = props.level === 2 ? 'h2' : 'h1';
  return (
    <div class="section-head">
      <Heading id={props.id ?? 'page-title'}>{props.title}</Heading>
      {props.action && (
        <button type="button" onClick={props.action.onClick}>
          {props.action.label}
        </button>
      )}
    </div>
  );
}

/** A column's header: its title, and `num` for figures (right-aligned); `false` leaves it out
 * (the Actions column of a person who may not act). */
export type Column = string | { title: string; num?: boolean } | false;

/**
 * A table of records, one row each, under one header row. Named by a visually hidden `caption` or
 * by the heading `labelledBy` points at; with `empty`, no rows say that instead of an empty table.
 * `rows` null: still loading ("Loading…"), or nothing once `error` says the load failed (the page
 * shows the error above).
 */
export function Table<T>(props: { caption?: string; labelledBy?: string; columns: Column[]; rows: T[] | null; error?: unknown; row: (record: T) => ComponentChildren; empty?: string }) {
  if (props.rows === null) return props.error ? null : <p class="loading">Loading…</p>;
  if (props.empty !== undefined && props.rows.length === 0) return <p class="muted">{props.empty}</p>;
  return (
    <table aria-labelledby={props.labelledBy}>
      {props.caption && <caption class="visually-hidden">{props.caption}</caption>}
      <thead>
        <tr>
          {props.columns.map((column) => {
            if (column === false) return null;
            const { title, num } = typeof column === 'string' ? { title: column, num: false } : column;
            return (
              <th key={title} scope="col" class={num ? 'num' : undefined}>
                {title}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>{props.rows.map(props.row)}</tbody>
    </table>
  );
}

/** A button's or form's call: busy while it runs, its error kept to show. */
export function useAction<T>(action: () => Promise<T>, onDone: (result: T) => void) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (event?: Event) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await action());
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run };
}

/**
 * Saves `url`'s file once `check` (a cheap call of the same session) has answered: the file streams
 * straight to the browser's downloads, so an expired session is renewed, an ended one goes to Sign
 * in and a refusal (two-factor now required, a filter refused) shows in the page, rather than
 * arriving as the content of a saved file.
 */
export async function downloadOnceAllowed(check: () => Promise<unknown>, url: string): Promise<void> {
  await check();
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.click();
}

/**
 * A value shown once (a secret, a link), selectable and copyable. `Copied` only once the clipboard
 * took it: a browser may refuse (no permission, an insecure origin), and a person told a secret was
 * copied would close the dialog that alone shows it. Refused, the page says to copy it by hand.
 */
export function CopyField(props: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('No clipboard on this page');
      await navigator.clipboard.writeText(props.value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const failedId = `${props.id}-copy-failed`;
  return (
    <div class="copy-field">
      <label for={props.id}>{props.label}</label>
      <div class="row">
        <input id={props.id} value={props.value} readOnly onFocus={(e) => e.currentTarget.select()} aria-describedby={copied === false ? failedId : undefined} />
        <button type="button" class="secondary" onClick={copy} aria-label={copied ? `Copied ${props.label}` : `Copy ${props.label}`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p role="status" class="visually-hidden">
        {copied && `${props.label} copied`}
      </p>
      {copied === false && (
        <p class="error" role="alert" id={failedId}>
          Not copied: this browser did not let the page use the clipboard. Select the {props.label} field and copy it yourself (Ctrl+C, or ⌘C on a Mac).
        </p>
      )}
    </div>
  );
}

/** What is shown this once (a new secret, an invitation link): a warning, each value to copy, and Done. */
export function ShownOnceDialog(props: { title: string; warning: ComponentChildren; fields: { id: string; label: string; value: string }[]; onDone: () => void; children?: ComponentChildren }) {
  return (
    <Dialog title={props.title} onClose={props.onDone}>
      <p class="warning" role="note">
        {props.warning}
      </p>
      {props.children}
      {props.fields.map((field) => (
        <CopyField key={field.id} {...field} />
      ))}
      <div class="buttons">
        <button type="button" onClick={props.onDone}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

/** A dialog's two buttons: its action (a form's submit, or `onClick` for a confirmation) and Cancel. */
export function DialogButtons(props: { label: string; busy: boolean; onCancel: () => void; danger?: boolean; onClick?: (event: Event) => void }) {
  return (
    <div class="buttons">
      <button type={props.onClick ? 'button' : 'submit'} class={props.danger ? 'danger' : undefined} disabled={props.busy} aria-busy={props.busy} onClick={props.onClick}>
        {props.label}
      </button>
      <button type="button" class="secondary" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** "Are you sure?": a dialog whose one action runs `action`, its error shown in place. */
export function ConfirmDialog(props: { title: string; label: string; danger?: boolean; action: () => Promise<unknown>; onDone: () => void; onClose: () => void; children: ComponentChildren }) {
  const { error, busy, run } = useAction(props.action, props.onDone);
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      {props.children}
      <ErrorMessage error={error} />
      <DialogButtons label={props.label} danger={props.danger} busy={busy} onCancel={props.onClose} onClick={run} />
    </Dialog>
  );
}

/** `From` and `To` fields of UTC days (YYYY-MM-DD), as Activity's filter and Overview's statement take them. */
export function DayRange(props: { id: string; from: string; to: string; max?: string; required?: boolean; onChange: (range: { from: string; to: string }) => void }) {
  const day = (name: 'from' | 'to', label: string) => (
    <div>
      <label for={`${props.id}-${name}`}>{label}</label>
      <input
        id={`${props.id}-${name}`}
        type="date"
        value={props[name]}
        max={props.max}
        required={props.required}
        onInput={(event) => props.onChange({ from: props.from, to: props.to, [name]: (event.currentTarget as HTMLInputElement).value })}
      />
    </div>
  );
  return (
    <>
      {day('from', 'From')}
      {day('to', 'To')}
    </>
  );
}
