import { FIRST_NETWORK, NETWORK_NAMES, type NetworkName } from '#functions/networks/names';

/** A chain job's schedule input: which network the run works on. Each network's EventBridge schedule
 * names its own but the first registered network's, which predates the others and names none (FIRST_NETWORK). */
export interface NetworkScheduleEvent {
  network?: NetworkName;
}

/** The network a run's schedule names. A name Cambio does not know is a misconfigured schedule:
 * thrown, so the run fails loudly (the job's Errors alarm) instead of working on the wrong chain. */
export function scheduledNetwork(event: NetworkScheduleEvent | undefined): NetworkName {
  const network = event?.network ?? FIRST_NETWORK;
  if (!NETWORK_NAMES.includes(network)) throw new Error(`The schedule names no network Cambio knows: ${JSON.stringify(network)}`);
  return network;
}
