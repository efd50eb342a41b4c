/** The tests start their EVM nodes as `npm start` does (local/anvil.ts): one anvil per call. */
export { startAnvil, startAnvilWithContracts, type Anvil } from '#local/anvil';
