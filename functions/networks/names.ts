/**
 * Every network Cambio accepts USDT on: the one list that the API's `network` field, the OpenAPI
 * enum and the registries (registry.ts and its neighbours) follow. Kept free of imports so that any
 * module, a record's schema or the settings, can name the networks without bundling one.
 * Adding a network: docs/adding-a-network.md.
 */
export const NETWORK_NAMES = ['tron'] as const;

export type NetworkName = (typeof NETWORK_NAMES)[number];

/**
 * The network of what names none: the dashboard's New withdrawal, withdrawal allowlist and
 * simulator, and the chain jobs, whose state (scan cursor, sweeps, the hot wallet's float) is not
 * yet kept per network. Throws once a second network is registered, so that those places are made
 * network-aware (docs/adding-a-network.md) rather than silently serving the first.
 */
export function soleNetworkName(): NetworkName {
  if (NETWORK_NAMES.length !== 1) throw new Error(`${NETWORK_NAMES.length} networks are registered: this caller must choose one by the record's network (docs/adding-a-network.md)`);
  return NETWORK_NAMES[0];
}

/** The `network` field's message when it names none of them: `must be "tron"`. */
export const NETWORK_CHOICE = `must be ${NETWORK_NAMES.map((name) => `"${name}"`).join(' or ')}`;
