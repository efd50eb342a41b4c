/** A 0x address as JSON Schema says it (evmAddressFormat's check is the real rule). Apart from
 * ./address.ts so the settings schema takes it without the network port. */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
