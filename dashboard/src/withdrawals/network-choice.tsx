import { useEffect, useState } from 'preact/hooks';
import { sessionApi } from '../api/session.ts';
import { NETWORK_DISPLAY } from '../../../functions/networks/display.ts';
import type { NetworkName } from '../../../functions/networks/names.ts';

/** TRON, open on every stage: the choice until the stage says which others it opens, and the default. */
const TRON_ONLY: NetworkName[] = ['tron'];
let stageNetworks: Promise<NetworkName[]> | undefined;

/** The networks the stage opens (functions/handlers/dashboard/get-stage.ts), asked once per page load. */
function useStageNetworks(): NetworkName[] {
  const [networks, setNetworks] = useState(TRON_ONLY);
  useEffect(() => {
    stageNetworks ??= sessionApi.stage().then(
      ({ data }) => data.networks,
      () => {
        stageNetworks = undefined;
        return TRON_ONLY;
      },
    );
    let current = true;
    void stageNetworks.then((loaded) => current && setNetworks(loaded));
    return () => {
      current = false;
    };
  }, []);
  return networks;
}

/** A network for people: `Ethereum`. */
export const networkTitle = (network: NetworkName | null): string => (network ? NETWORK_DISPLAY[network].title : 'None');

/** What an address on the network looks like, as a field's placeholder. */
export const addressPlaceholder = (network: NetworkName): string => (network === 'tron' ? 'T…' : '0x…');

/**
 * The `Network` choice beside an address (../shared/dashboard.md, Withdrawals from the dashboard):
 * the networks the stage opens, TRON first and chosen by default. The API checks the address for it,
 * so a `0x…` address with TRON chosen is refused, never paid to its TRON twin.
 */
export function NetworkChoice(props: { id: string; value: NetworkName; onChange: (network: NetworkName) => void }) {
  const networks = useStageNetworks();
  return (
    <>
      <label for={props.id}>Network</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value as NetworkName)}>
        {networks.map((network) => (
          <option key={network} value={network}>
            {NETWORK_DISPLAY[network].title}
          </option>
        ))}
      </select>
    </>
  );
}
