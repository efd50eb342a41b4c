/**
 * Every network Cambio accepts USDT on: the one list that the API's `network` field, the OpenAPI
 * enum and the registries (registry.ts and its neighbours) follow. Kept free of imports so that any
 * module, a record's schema or the settings, can name the networks without bundling one.
 * Adding a network: docs/adding-a-network.md.
 */
export const NETWORK_NAMES = ['tron'] as const;

export type NetworkName = (typeof NETWORK_NAMES)[number];

/** The `network` field's message when it names none of them: `must be "tron"`. */
export const NETWORK_CHOICE = `must be ${NETWORK_NAMES.map((name) => `"${name}"`).join(' or ')}`;
