process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import * as v from 'valibot';
import { FloatRefused, fundedFloat, recordHotWalletFloat, type FloatChain } from '#functions/ledger/floats';
import { formatAmount } from '#functions/shared/money';
import { EVM_NETWORK_NAMES, NETWORK_CHOICE, NETWORK_NAMES, type EvmNetworkName, type NetworkName } from '#functions/networks/names';
import { networksOpenIn } from '#functions/networks/open-networks';
import { evmChainOf } from '#functions/networks/evm/from-settings';
import { EVM_STAGE_SETTINGS, type EvmNetworkSettings } from '#functions/networks/evm/settings';
import { evmAddressFromPublicKey } from '#functions/networks/evm/keys';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { solanaChainOf } from '#functions/networks/solana/from-settings';
import { SOLANA_STAGE_SETTINGS, type SolanaNetworkSettings } from '#functions/networks/solana/settings';
import { KmsSolanaSigner, solanaSignerFrom } from '#functions/networks/solana/signer';
import type { SliceSettings } from '#functions/settings/functions';
import { createDocumentClient } from '#adapters/dynamo/client';
import { DynamoFloatStore } from '#adapters/dynamo/float-store';
import { depositAddressItem } from '#adapters/dynamo/items/deposit-address';
import { readItem } from '#adapters/dynamo/queries';
import { KmsSigner } from '#adapters/signer/kms-signer';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { STAGES } from '../config/stages.ts';
import { argumentsOf, operator, refuser } from './screening-target.ts';
import { errorText } from './error-text.ts';
import { JavaMissingError } from '#local/dynamodb-local';
import { runningRuntime, withLocalData } from '#local/local-data';

/**
 * `npm run float:record -- --network <name> --tx <hash> [--stage sandbox|production --table <TableName> [--rpc-url <url>]]`:
 * records a hot wallet's float, Cambio's own USDT sent to a network's hot wallet by hand (from
 * treasury, an exchange account), so that reconcile counts it as Cambio's rather than reporting a
 * surplus (functions/ledger/floats.ts, docs/reconciliation.md). What is recorded is what the final
 * chain shows the transaction moved to the hot wallet, never a figure typed in; a transaction is
 * recorded once, and a sweep (USDT from one of Cambio's deposit addresses) is refused.
 *
 * Locally (no --stage): TRON's sandbox chain and the EVM networks and Solana of the running `npm
 * start`, which records its own floats at start. On a deployed stage (with your AWS credentials): an
 * EVM network's node from the stage's EVM_NETWORKS, or Solana's from its SOLANA (the rpcUrlSecret
 * read from Secrets Manager, or --rpc-url), the hot wallet from its KMS key
 * (alias/cambio-<stage>-hot-wallet-<network>). TRON on a deployed stage: not yet.
 * Exits 2 on bad usage or a refusal (nothing written), 1 on a failure.
 */
const USAGE = `Usage: npm run float:record -- --network ${NETWORK_NAMES.join('|')} --tx <hash> [--stage sandbox|production --table <TableName> [--rpc-url <url>]]`;

function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

const { values } = argumentsOf(
  { network: { type: 'string' }, tx: { type: 'string' }, stage: { type: 'string', default: 'local' }, table: { type: 'string' }, 'rpc-url': { type: 'string' } },
  refuser(USAGE),
);
if (!(NETWORK_NAMES as readonly string[]).includes(values.network ?? '')) refuse(`Unknown network "${values.network ?? ''}": --network ${NETWORK_CHOICE}. ${USAGE}`);
const network = values.network as NetworkName;
const evm = (EVM_NETWORK_NAMES as readonly string[]).includes(network);
const solana = network === 'solana';
const given = values.tx ?? '';
/** Each network's transaction id, as its explorers show it, and as Cambio keys it. */
const TRANSACTION_IDS = {
  // 0x and 64 hex digits in any letter case: keyed in lower case, as nodes give it, so a pasted
  // capitalised hash is the same float, never a second one.
  evm: { form: /^0x[0-9a-fA-F]{64}$/, says: '0x and 64 hex digits', keyed: (id: string) => id.toLowerCase() },
  // Its first signature, 64 bytes in base58: letter case is part of it.
  solana: { form: /^[1-9A-HJ-NP-Za-km-z]{86,88}$/, says: "the transaction's signature, base58", keyed: (id: string) => id },
  // 64 lower-case hex digits, as TronGrid and the sandbox chain key it; an explorer may show it with 0x or in capitals.
  tron: { form: /^(0x)?[0-9a-fA-F]{64}$/, says: '64 hex digits', keyed: (id: string) => id.replace(/^0x/, '').toLowerCase() },
} as const;
const transactionId = TRANSACTION_IDS[evm ? 'evm' : solana ? 'solana' : 'tron'];
if (!transactionId.form.test(given)) refuse(`--tx must be the funding transaction's ${network === 'solana' ? 'signature' : 'hash'} (${transactionId.says}). ${USAGE}`);
const txHash = transactionId.keyed(given);
const stage = values.stage as 'local' | 'sandbox' | 'production';
if (!Object.hasOwn(STAGES, stage)) refuse(`Unknown stage "${values.stage}" (local, sandbox or production). ${USAGE}`);
const deployed = stage !== 'local';
if (deployed && !values.table) refuse(`--stage ${stage} needs --table <the stack's TableName output>. ${USAGE}`);
if (deployed && values.table && !values.table.startsWith(`Cambio-${stage}-`)) refuse(`--table ${values.table} is not the ${stage} stage's table (Cambio-${stage}-…).`);
if (!deployed && (values.table || values['rpc-url'])) refuse(`--table and --rpc-url go with --stage sandbox|production; without --stage the command works on the local runtime. ${USAGE}`);
if (deployed && network === 'tron') refuse(`On a deployed stage this command reads the EVM networks and Solana; a TRON float is not recorded by it yet.`);
const settings = STAGES[stage].functionEnvironment;

/** The network's chain, its USDT contract and the hot wallet's address there. */
async function networkOf(db: ReturnType<typeof createDocumentClient>, tableName: string): Promise<{ chain: FloatChain; usdtContract: string; hotWallet: string }> {
  if (solana) return solanaOf();
  if (!evm) {
    const chain = new SandboxChain(db, tableName, { blockIntervalMs: Number(settings.SANDBOX_BLOCK_INTERVAL_MS), solidifyAfter: Number(settings.DEPOSIT_REQUIRED_CONFIRMATIONS) });
    return { chain, usdtContract: settings.USDT_CONTRACT!, hotWallet: await new LocalKeySigner(settings.LOCAL_HOT_WALLET_KEY!).address() };
  }
  const name = network as EvmNetworkName;
  if (!deployed) {
    const running = runningRuntime();
    if (!running) refuse(`${name}'s sandbox node runs only while the local runtime does: start it with npm start.`);
    const opened = running.evmNetworks?.[name];
    if (!opened) refuse(`${name} is not open on the running local runtime; open are ${networksOpenIn({ EVM_NETWORKS: running.evmNetworks }).join(', ')}.`);
    const chain = evmChainOf(name, { EVM_NETWORKS: running.evmNetworks } as SliceSettings<'chain'>);
    return { chain, usdtContract: opened.usdtContract, hotWallet: await localEvmSigner(settings.LOCAL_HOT_WALLET_KEY!).address() };
  }
  const networks = v.parse(EVM_STAGE_SETTINGS.EVM_NETWORKS, settings.EVM_NETWORKS) as Partial<Record<EvmNetworkName, EvmNetworkSettings>>;
  const opened = networks[name];
  if (!opened) refuse(`The ${stage} stage does not open ${name} (its EVM_NETWORKS opens ${Object.keys(networks).join(', ') || 'none'}).`);
  const node: EvmNetworkSettings = values['rpc-url'] ? { ...opened, rpcUrl: values['rpc-url'], rpcUrlSecret: undefined } : opened;
  const chain = evmChainOf(name, { EVM_NETWORKS: { [name]: node } } as SliceSettings<'chain'>);
  const hotWallet = await new KmsSigner(`alias/cambio-${stage}-hot-wallet-${name}`, undefined, evmAddressFromPublicKey).address();
  return { chain, usdtContract: opened.usdtContract, hotWallet };
}

/** Solana's node, USDT's mint and the hot wallet's address: the running `npm start`'s node and key
 * locally; deployed, the stage's SOLANA (its rpcUrlSecret, or --rpc-url) and the hot wallet's KMS key. */
async function solanaOf(): Promise<{ chain: FloatChain; usdtContract: string; hotWallet: string }> {
  if (!deployed) {
    const opened = runningRuntime()?.solana;
    if (!opened) refuse('Solana is not open on a running local runtime: start it with npm start (Solana open).');
    return { chain: solanaChainOf({ SOLANA: opened }), usdtContract: opened.usdtMint, hotWallet: await solanaSignerFrom({ SOLANA: opened }).address() };
  }
  const opened = v.parse(SOLANA_STAGE_SETTINGS.SOLANA, settings.SOLANA) as SolanaNetworkSettings | undefined;
  if (!opened) refuse(`The ${stage} stage does not open Solana (its SOLANA is not set).`);
  const node: SolanaNetworkSettings = values['rpc-url'] ? { ...opened, rpcUrl: values['rpc-url'], rpcUrlSecret: undefined } : opened;
  return { chain: solanaChainOf({ SOLANA: node }), usdtContract: opened.usdtMint, hotWallet: await new KmsSolanaSigner(`alias/cambio-${stage}-hot-wallet-solana`).address() };
}

async function record(endpoint: string | undefined, tableName: string) {
  const db = createDocumentClient(endpoint);
  try {
    const { chain, usdtContract, hotWallet } = await networkOf(db, tableName);
    const float = await fundedFloat(chain, {
      network,
      txHash,
      usdtContract,
      hotWallet,
      isDepositAddress: async (address) => (await readItem(db, tableName, depositAddressItem.key(address))) !== null,
    });
    // Audited (an operator audit entry, `float.recorded`) in the float's own transaction.
    const outcome = await recordHotWalletFloat(new DynamoFloatStore(db, tableName), float, new Date(), operator());
    return { float, hotWallet, outcome };
  } finally {
    db.destroy();
  }
}

try {
  const { float, hotWallet, outcome } = deployed ? await record(undefined, values.table!) : await withLocalData(record);
  const amount = `${formatAmount(float.amount, 'USDT')} USDT`;
  console.log(
    outcome === 'recorded'
      ? `Recorded a float of ${amount} on ${network}'s hot wallet ${hotWallet} (transaction ${float.txHash}): Cambio's own, as reconcile now counts it.`
      : `Already recorded: the float of ${amount} from ${float.txHash} on ${network}. Nothing written.`,
  );
} catch (error) {
  if (error instanceof FloatRefused) refuse(`Not recorded: ${error.message}.`);
  console.error(error instanceof JavaMissingError ? error.message : `float:record failed: ${errorText(error)}`);
  process.exitCode = 1;
}
