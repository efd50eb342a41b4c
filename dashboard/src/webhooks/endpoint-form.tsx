import { useState } from 'preact/hooks';
import type { EndpointInput } from '../api/types.ts';
import { Dialog, DialogButtons, ErrorMessage, ShownOnceDialog, useAction } from '../components/ui.tsx';
import { EVENT_TYPES } from '../../../functions/shared/event-types.ts';

/** `Add endpoint` and edit: the URL, the events (or all of them) and a description. */
export function EndpointDialog(props: {
  title: string;
  label: string;
  initial?: Omit<EndpointInput, 'enabled'>;
  save: (input: Omit<EndpointInput, 'enabled'>) => Promise<unknown>;
  onSaved: () => void;
  onClose: () => void;
}) {
  const [url, setUrl] = useState(props.initial?.url ?? 'https://');
  const [description, setDescription] = useState(props.initial?.description ?? '');
  const [all, setAll] = useState(props.initial ? props.initial.events[0] === '*' : false);
  const [events, setEvents] = useState<string[]>(props.initial && props.initial.events[0] !== '*' ? props.initial.events : ['deposit.completed']);
  const toggle = (type: string) => setEvents(events.includes(type) ? events.filter((e) => e !== type) : [...events, type]);
  const { error, busy, run } = useAction(() => props.save({ url: url.trim(), events: all ? ['*'] : events, description: description.trim() || null }), props.onSaved);
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <form onSubmit={run}>
        <label for="endpoint-url">URL</label>
        <input id="endpoint-url" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} required maxLength={2048} />
        <label for="endpoint-description">Description</label>
        <input id="endpoint-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} maxLength={500} placeholder="Optional" />
        <fieldset>
          <legend>Events</legend>
          <label class="check">
            <input type="checkbox" checked={all} onChange={() => setAll(!all)} /> All events
          </label>
          {EVENT_TYPES.map((type) => (
            <label class="check" key={type}>
              <input type="checkbox" checked={all || events.includes(type)} disabled={all} onChange={() => toggle(type)} /> <code>{type}</code>
            </label>
          ))}
        </fieldset>
        <ErrorMessage error={error} />
        <DialogButtons label={props.label} busy={busy} onCancel={props.onClose} />
      </form>
    </Dialog>
  );
}

/** A signing secret, shown this once (after `Add endpoint` or `Roll secret`). */
export function SecretDialog(props: { secret: string; note?: string; onDone: () => void }) {
  return (
    <ShownOnceDialog
      title="Signing secret"
      warning="Copy the signing secret now: it is shown only this once. Your endpoint verifies each delivery's webhook-signature with it."
      fields={[{ id: 'signing-secret', label: 'Signing secret', value: props.secret }]}
      onDone={props.onDone}
    >
      {props.note && <p>{props.note}</p>}
    </ShownOnceDialog>
  );
}
