import { useEffect, useState } from 'preact/hooks';
import { sessionApi } from '../api/session.ts';
import { NETWORK_DISPLAY } from '../../../functions/networks/display.ts';
import { DEFAULT_NETWORK, EVM_NETWORK_NAMES, type NetworkName } from '../../../functions/networks/names.ts';

/** The default network (TRON), open on every stage: the choice until the stage says which others it opens. */
const DEFAULT_ONLY: NetworkName[] = [DEFAULT_NETWORK];
let stageNetworks: Promise<NetworkName[]> | undefined;

/** The networks the stage opens (functions/handlers/dashboard/get-stage.ts), asked once per page load. */
function useStageNetworks(): NetworkName[] {
  const [networks, setNetworks] = useState(DEFAULT_ONLY);
  useEffect(() => {
    stageNetworks ??= sessionApi.stage().then(
      ({ data }) => data.networks,
      () => {
        stageNetworks = undefined;
        return DEFAULT_ONLY;
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

const isEvm = (network: NetworkName): boolean => (EVM_NETWORK_NAMES as readonly NetworkName[]).includes(network);

/** What an address on the network looks like, as a field's placeholder: `T…` on TRON, `0x…` on the
 * EVM networks, and on another family's network its title (`Solana wallet address`: a wallet's,
 * not a token account's, which the API refuses). */
export const addressPlaceholder = (network: NetworkName): string =>
  network === 'tron' ? 'T…' : isEvm(network) ? '0x…' : `${NETWORK_DISPLAY[network].title} wallet address`;

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
