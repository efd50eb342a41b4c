import { deriveDepositAddress, TEST_MNEMONIC_ACCOUNT_XPUB } from './tron-address.ts';
import type { ReceiptResult } from '#functions/networks/chain';
import type { NetworkSandbox, SandboxPayer } from '#functions/networks/network';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { needed } from '#functions/settings/schema';
import type { SliceSettings } from '#functions/settings/functions';
import { SandboxChain } from './sandbox-chain.ts';

/** The fixed customer wallet that pays sandbox deposits, outside every index Cambio derives for
 * its own deposit addresses. */
export const SANDBOX_PAYER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_000_000_000);

/**
 * A customer's USDT payment on the sandbox chain, as a wallet would send it: what `npm run
 * sandbox:pay`, the client conformance runtime and the dashboard's `Simulate payment` all do.
 * `REVERT` mines a failed transfer (`sandbox:pay --fail`).
 */
export function sandboxPayer(chain: Pick<SandboxChain, 'submitTransfer'>, usdtContract: string): { pay(address: string, amount: bigint, result?: ReceiptResult): Promise<{ txHash: string; blockNumber: number }> } {
  return {
    pay: (address: string, amount: bigint, result: ReceiptResult = 'SUCCESS') => chain.submitTransfer({ contract: usdtContract, from: SANDBOX_PAYER, to: address, amount, result }),
  };
}

/** The sandbox simulator's payer on a stage whose chain is the sandbox chain; null elsewhere
 * (production reads TRON, where money moves only from a real wallet). Here, not in from-settings.ts,
 * so the dashboard API's bundle carries the sandbox chain alone, not TronGrid's client. Every
 * company pays from SANDBOX_PAYER: the sandbox chain keeps no balance for a payer, so no company
 * can empty it for the others. */
export function sandboxPayerFrom(db: DynamoDBDocumentClient, tableName: string, settings: SliceSettings<'chain'>): SandboxPayer | null {
  if (settings.CHAIN_ADAPTER !== 'sandbox') return null;
  const chain = new SandboxChain(db, tableName, {
    blockIntervalMs: needed(settings.SANDBOX_BLOCK_INTERVAL_MS, 'SANDBOX_BLOCK_INTERVAL_MS', 'CHAIN_ADAPTER=sandbox'),
    solidifyAfter: settings.DEPOSIT_REQUIRED_CONFIRMATIONS,
  });
  const payer = sandboxPayer(chain, settings.USDT_CONTRACT);
  // The simulator always pays a transfer that succeeds, whichever company asks.
  return { pay: (address, amount) => payer.pay(address, amount) };
}

export const tronSandbox: NetworkSandbox = { payer: sandboxPayerFrom };
