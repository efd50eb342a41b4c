/**
 * The keys and entity types of the sandbox chain's own items (functions/adapters/chain/
 * sandbox-chain.ts and sandbox-balances.ts): its genesis, its transfers by block (one partition,
 * range-queried by block number), each transaction's receipt, the token balances it keeps (one
 * partition per contract, TRX included) and the one-time TRX grant to the hot wallet. Written only
 * where the sandbox chain stands in for TRON.
 */
const block = (blockNumber: number) => `BLOCK#${String(blockNumber).padStart(12, '0')}#`;

export const sandboxGenesisItem = {
  type: 'SandboxGenesis',
  key: () => ({ PK: 'SANDBOX_CHAIN', SK: 'GENESIS' }),
};

export const sandboxTransferItem = {
  type: 'SandboxTransfer',
  partition: 'SANDBOX_TRANSFERS',
  key: (blockNumber: number, txHash: string, eventIndex: number) => ({ PK: sandboxTransferItem.partition, SK: `${block(blockNumber)}${txHash}#${eventIndex}` }),
  /** The sort key every transfer of `blockNumber` begins with: the bounds of a range of blocks. */
  blockBound: block,
};

export const sandboxTransactionItem = {
  type: 'SandboxTransaction',
  key: (txHash: string) => ({ PK: `SANDBOX_TX#${txHash}`, SK: 'TX' }),
};

export const sandboxBalanceItem = {
  type: 'SandboxBalance',
  key: (contract: string, address: string) => ({ PK: `SANDBOX_BALANCE#${contract}`, SK: address }),
  ofContract: (contract: string) => ({ PK: `SANDBOX_BALANCE#${contract}`, skPrefix: '' }),
};

export const sandboxTreasuryGrantItem = {
  type: 'SandboxTreasuryGrant',
  key: (address: string) => ({ PK: 'SANDBOX_CHAIN', SK: `TREASURY_GRANT#${address}` }),
};
