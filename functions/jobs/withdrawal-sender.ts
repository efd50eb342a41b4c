import middy from '@middy/core';
import { sendWithdrawals, settleWithdrawals, type SendingDeps } from '#domain/withdrawal-sending';
import { dynamoFromEnv } from '#adapters/runtime';
import { chainFromEnv } from '#adapters/chain/from-env';
import { TronTransferBuilder } from '#adapters/chain/tron-transfer-builder';
import { DynamoWithdrawalSendingStore } from '#adapters/dynamo/withdrawal-sending-store';
import { requireEnv } from '#adapters/env';
import { signerFromEnv } from '#adapters/signer/from-env';

const { db, tableName } = dynamoFromEnv();
const { chain, settings } = chainFromEnv(db, tableName);
const deps: SendingDeps = {
  chain,
  broadcaster: chain,
  builder: new TronTransferBuilder(chain, { usdtContract: settings.usdtContract, feeLimitSun: Number(requireEnv('WITHDRAWAL_FEE_LIMIT_SUN')) }),
  // The only function that holds a signer: the stack grants kms:Sign to this one alone.
  signer: signerFromEnv(),
  store: new DynamoWithdrawalSendingStore(db, tableName),
};

/** The withdrawal sender (EventBridge schedule in AWS, a timer in the local runtime):
 * send what is pending (withdrawals and split forwards), then settle what was sent. */
export async function sendAndSettleWithdrawals(): Promise<Record<string, unknown>> {
  const sent = await sendWithdrawals(deps);
  const settled = await settleWithdrawals(deps);
  return { sent, settled };
}

export const handler = middy().handler(async () => {
  const outcome = await sendAndSettleWithdrawals();
  console.log(JSON.stringify({ level: 'info', message: 'withdrawal send', ...outcome }));
  return outcome;
});
