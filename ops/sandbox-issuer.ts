process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { parseArgs } from 'node:util';
import { AmountFormatError, formatAmount, parseAmount } from '#functions/shared/money';
import { EVM_NETWORK_NAMES, NETWORK_CHOICE, NETWORK_NAMES, type EvmNetworkName, type NetworkName } from '#functions/networks/names';
import { networksOpenIn } from '#functions/networks/open-networks';
import { addressInWords, networkNamed } from '#functions/networks/registry';
import type { SandboxIssuer } from '#functions/networks/sandbox-issuer';
import { EVM_NETWORKS } from '#functions/networks/evm/networks';

/**
 * `npm run sandbox:issuer -- <action> --network <name> …`: what Tether, the token's issuer, does to
 * USDT, on the local runtime's chains (../shared/networks.md, "The token as it is on mainnet"):
 * freeze or unfreeze an address, pause or unpause every transfer, switch the transfer fee, deprecate
 * the contract for an upgraded one. TRON: the sandbox chain in the local runtime's table
 * (functions/networks/tron/sandbox-issuer.ts). An EVM network: a transaction signed by the local
 * issuer account on the anvil node of the running `npm start` (local/evm-issuer.ts), which owns its
 * TetherUsdt. BSC's token (BEP20USDT) has none of these controls.
 * Exits 2 on bad usage or a control the network's token lacks, 1 on a failure.
 */
const ACTIONS = ['freeze', 'unfreeze', 'pause', 'unpause', 'fee', 'deprecate'] as const;
type Action = (typeof ACTIONS)[number];
/** TetherToken's setParams takes a maximum fee below 50 whole tokens: the default is its most. */
const DEFAULT_MAX_FEE = '49';
const USAGE = [
  'Usage: npm run sandbox:issuer -- freeze|unfreeze --network <network> --address <address> [--json]',
  '       npm run sandbox:issuer -- pause|unpause --network <network> [--json]',
  `       npm run sandbox:issuer -- fee --network <network> --basis-points <0-20; 0-19 on the EVM networks> [--max-fee <USDT, default ${DEFAULT_MAX_FEE}>] [--json]`,
  '       npm run sandbox:issuer -- deprecate --network <network> [--json]',
  `  <network>: ${NETWORK_NAMES.join('|')} (bsc's USDT has no issuer controls; Solana's is frozen and thawed only). The local runtime's chains: TRON's sandbox chain, and an EVM network's or Solana's node while npm start runs.`,
  '  fee: basis points of each transfer go to the issuer, at most --max-fee USDT a transfer (below 20 basis points and whole USDT below 50 on the EVM networks, as TetherToken\'s setParams takes them); --basis-points 0 switches it off.',
].join('\n');
/** The options each action takes beyond --network and --json. */
const OPTIONS_OF: Record<Action, readonly string[]> = {
  freeze: ['address'],
  unfreeze: ['address'],
  pause: [],
  unpause: [],
  fee: ['basis-points', 'max-fee'],
  deprecate: [],
};

function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

const OPTIONS = {
  network: { type: 'string' },
  address: { type: 'string' },
  'basis-points': { type: 'string' },
  'max-fee': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;
let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
try {
  parsed = parseArgs({ options: OPTIONS, allowPositionals: true });
} catch (error) {
  refuse(`${(error as Error).message}.\n${USAGE}`);
}
const { values, positionals } = parsed;
if (positionals.length !== 1 || !(ACTIONS as readonly string[]).includes(positionals[0]!)) {
  refuse(`${positionals.length === 0 ? 'No action given' : `Unknown action "${positionals.join(' ')}"`}: one of ${ACTIONS.join(', ')}.\n${USAGE}`);
}
const action = positionals[0] as Action;
const given = Object.keys(values).filter((option) => option !== 'json' && option !== 'network' && values[option as keyof typeof values] !== undefined);
const extra = given.filter((option) => !OPTIONS_OF[action].includes(option));
if (extra.length > 0) refuse(`${action} takes no ${extra.map((option) => `--${option}`).join(' or ')}.\n${USAGE}`);
if (values.network === undefined) refuse(`--network is required: ${NETWORK_NAMES.join(', ')}.\n${USAGE}`);
if (!(NETWORK_NAMES as readonly string[]).includes(values.network)) refuse(`Unknown network "${values.network}": --network ${NETWORK_CHOICE}.\n${USAGE}`);
const networkName = values.network as NetworkName;
const network = networkNamed(networkName);
const evmName = (EVM_NETWORK_NAMES as readonly string[]).includes(networkName) ? (networkName as EvmNetworkName) : undefined;
if (evmName && EVM_NETWORKS[evmName].tokenControls === 'none') {
  refuse(`${network.title}'s USDT (BEP20USDT) has no issuer controls: it cannot be frozen, paused, charged a fee or deprecated.`);
}
// SPL Token's only control is the mint's freeze authority (refused before anything is loaded).
if (networkName === 'solana' && action !== 'freeze' && action !== 'unfreeze') {
  refuse(`Solana's USDT (an SPL Token mint) has no ${action === 'fee' ? 'transfer fee' : action === 'deprecate' ? 'deprecation' : 'pause'}: its issuer can only freeze and unfreeze a wallet's token account.`);
}

const address = values.address;
if ((action === 'freeze' || action === 'unfreeze') && (address === undefined || !network.address.is(address))) {
  refuse(`--address must be a ${addressInWords(network)}.\n${USAGE}`);
}
let basisPoints = 0;
let maxFee = 0n;
if (action === 'fee') {
  const points = values['basis-points'];
  if (points === undefined || !/^\d{1,2}$/.test(points) || Number(points) > 20) refuse(`--basis-points must be a whole number from 0 to 20.\n${USAGE}`);
  basisPoints = Number(points);
  const most = values['max-fee'] ?? DEFAULT_MAX_FEE;
  if (/^0(\.0+)?$/.test(most)) maxFee = 0n;
  else {
    try {
      maxFee = parseAmount(most, 'USDT');
    } catch (error) {
      if (!(error instanceof AmountFormatError)) throw error;
      refuse(`--max-fee ${error.message}.\n${USAGE}`);
    }
  }
}

/** The action on the network's issuer; what it did, for people and for --json. */
async function act(issuer: SandboxIssuer): Promise<{ said: string; json: Record<string, unknown> }> {
  const on = `USDT on ${networkName}`;
  switch (action) {
    case 'freeze':
      await issuer.freeze(address!);
      return { said: `Froze ${address} on ${networkName}: it can no longer send USDT.`, json: { network: networkName, frozen: address } };
    case 'unfreeze':
      await issuer.unfreeze(address!);
      return { said: `Unfroze ${address} on ${networkName}: it can send USDT again.`, json: { network: networkName, unfrozen: address } };
    case 'pause':
      await issuer.pause();
      return { said: `Paused ${on}: no transfer goes through until unpause.`, json: { network: networkName, paused: true } };
    case 'unpause':
      await issuer.unpause();
      return { said: `Unpaused ${on}.`, json: { network: networkName, paused: false } };
    case 'fee':
      await issuer.setFee(basisPoints, maxFee);
      return {
        said: basisPoints === 0 ? `${on} charges no transfer fee.` : `${on} charges ${basisPoints} basis points of each transfer, at most ${formatAmount(maxFee, 'USDT')} USDT, to the issuer.`,
        json: { network: networkName, basisPoints, maxFee: formatAmount(maxFee, 'USDT') },
      };
    case 'deprecate': {
      const { upgradedContract } = await issuer.deprecate();
      return { said: `Deprecated ${on} for ${upgradedContract}: the old contract forwards every transfer to it.`, json: { upgradedContract } };
    }
  }
}

// What acts on a chain is loaded once the arguments hold (viem, the AWS SDK, the contracts' ABIs:
// seconds of CPU that a refused command does not pay).
async function onTron() {
  const [{ withLocalData }, { JavaMissingError }, { createDocumentClient }, { tronSandboxIssuer }] = await Promise.all([
    import('#local/local-data'),
    import('#local/dynamodb-local'),
    import('#adapters/dynamo/client'),
    import('#functions/networks/tron/sandbox-issuer'),
  ]);
  try {
    return await withLocalData(async (endpoint, tableName) => {
      const db = createDocumentClient(endpoint);
      try {
        return await act(tronSandboxIssuer(db, tableName));
      } finally {
        db.destroy();
      }
    });
  } catch (error) {
    if (!(error instanceof JavaMissingError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/** An EVM network's node lives only as long as the `npm start` that started it. */
async function onEvm(name: EvmNetworkName) {
  const { runningRuntime } = await import('#local/local-data');
  const running = runningRuntime();
  if (!running) refuse(`${network.title}'s sandbox node runs only while the local runtime does: start it with npm start, then try again.`);
  const opened = running.evmNetworks?.[name];
  if (!opened) refuse(`${name} is not open on the running local runtime; open are ${networksOpenIn({ EVM_NETWORKS: running.evmNetworks }).join(', ')}.`);
  const { evmSandboxIssuer, TokenWithoutControls } = await import('#local/evm-issuer');
  try {
    return await act(evmSandboxIssuer(name, opened));
  } catch (error) {
    // The running runtime's setting for the network says its token lacks the control: any (BSC's
    // BEP20USDT), or a pause, a fee and a deprecation (Tether's newer token), before anything is sent.
    if (error instanceof TokenWithoutControls) refuse(`${error.message}.`);
    throw error;
  }
}

/** Solana's node lives only as long as the `npm start` that started it. */
async function onSolana() {
  const { runningRuntime } = await import('#local/local-data');
  const running = runningRuntime();
  if (!running?.solana) refuse(`${network.title}'s node runs only while the local runtime does, with Solana open: start it with npm start, then try again.`);
  const { solanaSandboxIssuer } = await import('#local/solana-issuer');
  return act(solanaSandboxIssuer(running.solana));
}

try {
  const { said, json } = evmName ? await onEvm(evmName) : networkName === 'solana' ? await onSolana() : await onTron();
  console.log(values.json ? JSON.stringify(json) : said);
} catch (error) {
  // An argument the network's token refuses (a fee above TetherToken's limits), before anything is sent.
  if (error instanceof RangeError) refuse(`Not done: ${error.message}.`);
  console.error(`sandbox:issuer failed: ${String(error)}`);
  process.exitCode = 1;
}
