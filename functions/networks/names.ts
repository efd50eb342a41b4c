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

/**
 * The networks payouts go out on: withdrawals, and the forward of a deposit's split. The EVM
 * networks take deposits; sending on them (nonces, fees, receipts) is not built yet, so a withdrawal
 * there is refused rather than left `pending` with nothing to send it, and a split forward on them
 * waits `pending` with its money locked until it is.
 */
export const PAYOUT_NETWORK_NAMES = ['tron'] as const satisfies readonly NetworkName[];
export type PayoutNetworkName = (typeof PAYOUT_NETWORK_NAMES)[number];

/** The network whose keys sign for the hot wallet and whose chain the sweeper and reconcile read:
 * TRON, the one network with payouts (PAYOUT_NETWORK_NAMES). */
export const HOT_WALLET_NETWORK: PayoutNetworkName = 'tron';

const choice = (names: readonly string[]) => `must be ${names.map((name) => `"${name}"`).join(', ').replace(/, ([^,]*)$/, ' or $1')}`;

/** The `network` field's message when it names none of them: `must be "tron", "ethereum", … or "arbitrum"`. */
export const NETWORK_CHOICE = choice(NETWORK_NAMES);
export const PAYOUT_NETWORK_CHOICE = `${choice(PAYOUT_NETWORK_NAMES)}: payouts on ${NETWORK_NAMES.filter((name) => !(PAYOUT_NETWORK_NAMES as readonly string[]).includes(name)).join(', ')} are not open yet`;
