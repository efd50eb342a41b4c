process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { parseArgs } from 'node:util';
import { AmountFormatError, parseAmount } from '#functions/shared/money';
import { isTronAddress } from '#functions/networks/tron/tron-address';
import { createDocumentClient } from '#adapters/dynamo/client';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { sandboxPayer } from '#functions/networks/tron/sandbox-payer';
import { STAGES } from '../config/stages.ts';
import { JavaMissingError } from '#local/dynamodb-local';
import { withLocalData } from '#local/local-data';

/**
 * `npm run sandbox:pay -- --address T… --amount 10.5 [--json] [--fail]`: a USDT transfer on the
 * sandbox chain, as a customer's wallet would send it. Local runtime by default; `--stage sandbox
 * --table <name>` writes to a deployed sandbox stage's table with your AWS credentials.
 * Production reads the real TRON network and is refused.
 */
const USAGE = 'Usage: npm run sandbox:pay -- --address T... --amount 10.5 [--json] [--fail] [--stage local|sandbox --table <name>]';
const { values } = parseArgs({
  options: {
    address: { type: 'string' },
    amount: { type: 'string' },
    json: { type: 'boolean', default: false },
    fail: { type: 'boolean', default: false },
    stage: { type: 'string', default: 'local' },
    table: { type: 'string' },
  },
});

function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

if (values.stage === 'production' || /production/i.test(values.table ?? '')) {
  refuse('sandbox:pay is refused in production: production reads the real TRON network, where money is sent with a real wallet.');
}
if (values.stage !== 'local' && values.stage !== 'sandbox') refuse(`Unknown stage "${values.stage}". ${USAGE}`);
if (values.stage === 'sandbox' && !values.table) refuse(`--stage sandbox needs --table <the stack's TableName output>. ${USAGE}`);
if (!values.address || !isTronAddress(values.address)) refuse(`--address must be a TRON address (T..., base58check). ${USAGE}`);
let amount: bigint;
try {
  amount = parseAmount(values.amount, 'USDT');
} catch (error) {
  if (!(error instanceof AmountFormatError)) throw error;
  refuse(`--amount ${error.message}. ${USAGE}`);
}

const stage = STAGES[values.stage as 'local' | 'sandbox'];
const settings = stage.functionEnvironment;
async function pay(endpoint: string | undefined, tableName: string) {
  const db = createDocumentClient(endpoint);
  try {
    const chain = new SandboxChain(db, tableName, {
      blockIntervalMs: Number(settings.SANDBOX_BLOCK_INTERVAL_MS),
      solidifyAfter: Number(settings.DEPOSIT_REQUIRED_CONFIRMATIONS),
    });
    return await sandboxPayer(chain, settings.USDT_CONTRACT).pay(values.address!, amount, values.fail ? 'REVERT' : 'SUCCESS');
  } finally {
    db.destroy();
  }
}

try {
  const { txHash, blockNumber } =
    values.stage === 'sandbox' ? await pay(undefined, values.table!) : await withLocalData((endpoint, tableName) => pay(endpoint, tableName));
  if (values.json) console.log(JSON.stringify({ txHash }));
  else console.log(`Sent ${values.amount} USDT to ${values.address} in block ${blockNumber}\n  txHash ${txHash}`);
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `sandbox:pay failed: ${String(error)}`);
  process.exitCode = 1;
}
