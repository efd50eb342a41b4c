/**
 * What the client's tests need from the repository around it: the local runtime (the one
 * `npm start` runs) over a real socket, and ways to move money as the sandbox chain would. The
 * client package has no import aliases of its own, so everything comes by relative path.
 */
import { createDocumentClient } from '../../../functions/adapters/dynamo/client.ts';
import { SandboxChain } from '../../../functions/networks/tron/sandbox-chain.ts';
import { parseAmount } from '../../../functions/shared/money.ts';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '../../../functions/networks/tron/tron-address.ts';
import type { LocalRuntime } from '../../../local/runtime.ts';
import { STAGES } from '../../../config/stages.ts';
import { creditAvailable } from '../../../test/support/money.ts';

export { startTestApi } from '../../../test/support/local-api.ts';
export { waitFor } from '../../../test/support/wait.ts';
export type { LocalRuntime };

/** Credits the sandbox company's available USDT directly in the ledger (no chain wait). */
export async function fund(runtime: LocalRuntime, amount: string): Promise<void> {
  await creditAvailable(createDocumentClient(runtime.dynamoEndpoint), runtime.tableName, runtime.sandbox.companyId, 'USDT', amount);
}

/** What `npm run sandbox:pay -- --address … --amount …` does: a USDT transfer on the sandbox chain
 * (with the runtime's block interval, which tests make short). */
export async function payOnSandboxChain(runtime: LocalRuntime, address: string, amount: string, blockIntervalMs: number): Promise<string> {
  const chain = new SandboxChain(createDocumentClient(runtime.dynamoEndpoint), runtime.tableName, { blockIntervalMs, solidifyAfter: 19 });
  const { txHash } = await chain.submitTransfer({
    contract: STAGES.local.functionEnvironment.USDT_CONTRACT,
    from: deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_000_000_000),
    to: address,
    amount: parseAmount(amount, 'USDT'),
  });
  return txHash;
}
