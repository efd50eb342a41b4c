/**
 * Every network Cambio accepts USDT on: the one list that the API's `network` field, the OpenAPI
 * enum and the registries (registry.ts and its neighbours) follow. Kept free of imports so that any
 * module, a record's schema or the settings, can name the networks without bundling one.
 * Adding a network: docs/adding-a-network.md.
 */
export const NETWORK_NAMES = ['tron', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'solana'] as const;

export type NetworkName = (typeof NETWORK_NAMES)[number];

/** The EVM family's networks (functions/networks/evm/), named one by one: a network of another
 * family added to NETWORK_NAMES is not one of them (test/unit/new-family.test.ts). */
export const EVM_NETWORK_NAMES = ['ethereum', 'bsc', 'polygon', 'arbitrum'] as const satisfies readonly NetworkName[];
export type EvmNetworkName = (typeof EVM_NETWORK_NAMES)[number];

/** The network a withdrawal asked for without one is on (records written before `network`
 * existed are read so too), and the address form a hot-wallet signer names itself in unless its
 * network's jobs give another (functions/networks/key-registry.ts). */
export const DEFAULT_NETWORK = NETWORK_NAMES[0];

/**
 * The first registered network's chain jobs predate the others': its schedules name no network, and
 * its runs' metrics carry no `Network` dimension and its job names no network, as the alarms and
 * dashboards made on them read them. Every other network's carry its name.
 */
export const FIRST_NETWORK = NETWORK_NAMES[0];
export const metricsDimensionOf = (network: NetworkName): string | null => (network === FIRST_NETWORK ? null : network);
export const jobNameOf = (job: string, network: NetworkName): string => (network === FIRST_NETWORK ? job : `${job} (${network})`);

const choice = (names: readonly string[]) => `must be ${names.map((name) => `"${name}"`).join(', ').replace(/, ([^,]*)$/, ' or $1')}`;

/** The `network` field's message when it names none of them: `must be "tron", "ethereum", … or "arbitrum"`. */
export const NETWORK_CHOICE = choice(NETWORK_NAMES);
