/**
 * Every network Cambio accepts USDT on: the one list that the API's `network` field, the OpenAPI
 * enum and the registries (registry.ts and its neighbours) follow. Kept free of imports so that any
 * module, a record's schema or the settings, can name the networks without bundling one.
 * Adding a network: docs/adding-a-network.md.
 */
export const NETWORK_NAMES = ['tron', 'ethereum', 'bsc', 'polygon', 'arbitrum'] as const;

export type NetworkName = (typeof NETWORK_NAMES)[number];

/** The EVM networks (functions/networks/evm/): every network but TRON. */
export const EVM_NETWORK_NAMES = NETWORK_NAMES.filter((name): name is Exclude<NetworkName, 'tron'> => name !== 'tron');
export type EvmNetworkName = (typeof EVM_NETWORK_NAMES)[number];

/** The network whose sweeps and reconciliation run (TRON's alone so far), and a dashboard
 * withdrawal's network. */
export const HOT_WALLET_NETWORK = 'tron' satisfies NetworkName;

const choice = (names: readonly string[]) => `must be ${names.map((name) => `"${name}"`).join(', ').replace(/, ([^,]*)$/, ' or $1')}`;

/** The `network` field's message when it names none of them: `must be "tron", "ethereum", … or "arbitrum"`. */
export const NETWORK_CHOICE = choice(NETWORK_NAMES);
