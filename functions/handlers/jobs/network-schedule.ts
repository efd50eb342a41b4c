import { HOT_WALLET_NETWORK, NETWORK_NAMES, type NetworkName } from '#functions/networks/names';

/** A chain job's schedule input: which network the run works on (TRON when none is named). Each
 * EVM network's EventBridge schedule names its own; TRON's shared schedule names none. */
export interface NetworkScheduleEvent {
  network?: NetworkName;
}

/** The network a run's schedule names. A name Cambio does not know is a misconfigured schedule:
 * thrown, so the run fails loudly (the job's Errors alarm) instead of working on the wrong chain. */
export function scheduledNetwork(event: NetworkScheduleEvent | undefined): NetworkName {
  const network = event?.network ?? HOT_WALLET_NETWORK;
  if (!NETWORK_NAMES.includes(network)) throw new Error(`The schedule names no network Cambio knows: ${JSON.stringify(network)}`);
  return network;
}
