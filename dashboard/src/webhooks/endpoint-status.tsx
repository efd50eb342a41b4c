import type { Endpoint } from '../api/types.ts';

/** What an endpoint is subscribed to, as the list and its page say it. */
export const eventsText = (events: string[]) => (events[0] === '*' ? 'All events' : events.join(', '));

export function EndpointStatus(props: { endpoint: Endpoint }) {
  return (
    <>
      <span class={`status ${props.endpoint.enabled ? 'active' : 'revoked'}`}>{props.endpoint.enabled ? 'Enabled' : 'Disabled'}</span>
      {props.endpoint.disabledReason && <span class="hint"> by Cambio: {props.endpoint.disabledReason}</span>}
    </>
  );
}
