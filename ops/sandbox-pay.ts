process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { AmountFormatError, parseAmount } from '#functions/shared/money';
import { NETWORK_CHOICE, NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { networksOpenIn } from '#functions/networks/open-networks';
import { addressInWords, networkNamed } from '#functions/networks/registry';
import type { EvmNetworkName } from '#functions/networks/evm/settings';
import { evmSandboxPayer } from '#functions/networks/evm/sandbox-payer';
import { solanaSandboxPayer } from '#functions/networks/solana/sandbox-payer';
import { createDocumentClient } from '#adapters/dynamo/client';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { sandboxPayer } from '#functions/networks/tron/sandbox-payer';
import { STAGES } from '../config/stages.ts';
import { JavaMissingError } from '#local/dynamodb-local';
import { runningRuntime, withLocalData } from '#local/local-data';
import { argumentsOf, refuser } from './screening-target.ts';

/**
 * `npm run sandbox:pay -- [--network tron] --address … --amount 10.5 [--json] [--fail]`: a USDT
 * transfer on a sandbox chain, as a customer's wallet would send it. TRON (the default): the
 * sandbox chain in the local runtime's table, or with `--stage sandbox --table <name>` a deployed
 * sandbox stage's, with your AWS credentials. An EVM network or Solana: from the customer wallet on
 * the node of the running `npm start` (.data/runtime.json names the nodes); on Solana the payee's
 * token account is created in the payment when it has none, as a wallet does. Production reads the
 * real networks and is refused.
 */
const USAGE =
  `Usage: npm run sandbox:pay -- [--network ${NETWORK_NAMES.join('|')}] --address <address> --amount 10.5 [--json] [--fail] [--stage local|sandbox --table <name>]`;
const { values } = argumentsOf(
  {
    network: { type: 'string', default: 'tron' },
    address: { type: 'string' },
    amount: { type: 'string' },
    json: { type: 'boolean', default: false },
    fail: { type: 'boolean', default: false },
    stage: { type: 'string', default: 'local' },
    table: { type: 'string' },
  },
  refuser(USAGE),
);

function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

if (values.stage === 'production' || /production/i.test(values.table ?? '')) {
  refuse('sandbox:pay is refused in production: production reads the real networks, where money is sent with a real wallet.');
}
if (values.stage !== 'local' && values.stage !== 'sandbox') refuse(`Unknown stage "${values.stage}". ${USAGE}`);
if (values.stage === 'sandbox' && !values.table) refuse(`--stage sandbox needs --table <the stack's TableName output>. ${USAGE}`);
// Without --stage sandbox the payment is on the local data: a --table given there would be ignored.
if (values.stage !== 'sandbox' && values.table !== undefined) refuse(`--table goes with --stage sandbox; without it the payment is made on the local runtime. ${USAGE}`);
if (!(NETWORK_NAMES as readonly string[]).includes(values.network)) refuse(`Unknown network "${values.network}": --network ${NETWORK_CHOICE}. ${USAGE}`);
const networkName = values.network as NetworkName;
const network = networkNamed(networkName);
if (!values.address || !network.address.is(values.address)) refuse(`--address must be a ${addressInWords(network)}. ${USAGE}`);
if (networkName !== 'tron' && values.stage !== 'local') refuse(`${network.title} has a sandbox node only in the local runtime (npm start): no --stage. ${USAGE}`);
if (networkName !== 'tron' && values.fail) refuse(`--fail is the sandbox TRON chain's (a reverted transfer); ${network.title}'s node runs the real token ${networkName === 'solana' ? 'program' : 'contract'}. ${USAGE}`);
let amount: bigint;
try {
  amount = parseAmount(values.amount, 'USDT');
} catch (error) {
  if (!(error instanceof AmountFormatError)) throw error;
  refuse(`--amount ${error.message}. ${USAGE}`);
}

const stage = STAGES[values.stage as 'local' | 'sandbox'];
const settings = stage.functionEnvironment;
async function payOnTron(endpoint: string | undefined, tableName: string) {
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

/** An EVM network's node lives only as long as the `npm start` that started it. */
async function payOnEvm(name: EvmNetworkName) {
  const running = runningRuntime();
  if (!running) refuse(`${network.title}'s sandbox node runs only while the local runtime does: start it with npm start, then pay again.`);
  const opened = running.evmNetworks?.[name];
  if (!opened) refuse(`${name} is not open on the running local runtime; open are ${networksOpenIn({ EVM_NETWORKS: running.evmNetworks, SOLANA: running.solana }).join(', ')}.`);
  return evmSandboxPayer(name, opened).pay(values.address!, amount);
}

/** Solana's node lives inside the `npm start` that started it. */
async function payOnSolana() {
  const running = runningRuntime();
  if (!running) refuse(`${network.title}'s sandbox node runs only while the local runtime does: start it with npm start, then pay again.`);
  if (!running.solana) refuse(`solana is not open on the running local runtime; open are ${networksOpenIn({ EVM_NETWORKS: running.evmNetworks, SOLANA: running.solana }).join(', ')}.`);
  return solanaSandboxPayer(running.solana).pay(values.address!, amount, { companyId: 'sandbox:pay' });
}

try {
  const paid: { txHash: string; blockNumber?: number } =
    networkName === 'solana'
      ? await payOnSolana()
      : networkName !== 'tron'
      ? await payOnEvm(networkName)
      : values.stage === 'sandbox'
        ? await payOnTron(undefined, values.table!)
        : await withLocalData((endpoint, tableName) => payOnTron(endpoint, tableName));
  if (values.json) console.log(JSON.stringify({ txHash: paid.txHash }));
  else console.log(`Sent ${values.amount} USDT to ${values.address} ${paid.blockNumber === undefined ? `on ${network.title}` : `in block ${paid.blockNumber}`}\n  txHash ${paid.txHash}`);
} catch (error) {
  console.error(error instanceof JavaMissingError ? error.message : `sandbox:pay failed: ${String(error)}`);
  process.exitCode = 1;
}
