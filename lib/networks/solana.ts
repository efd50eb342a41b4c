import * as v from 'valibot';
import { KeySpec, type IKey } from 'aws-cdk-lib/aws-kms';
import { solana } from '../../functions/networks/solana/network.ts';
import { solanaSweepItem } from '../../functions/networks/solana/sweep-record.ts';
import { SOLANA_STAGE_SETTINGS, type SolanaNetworkSettings } from '../../functions/networks/solana/settings.ts';
import type { StageConfig } from '../../config/stages.ts';
import type { Binder } from '../api-function.ts';
import { secretsNamedIn } from '../binders.ts';
import { FREEZE_ONLY, hotWalletKey, type NetworkFamilyStack } from './network-stack.ts';

/**
 * Solana on the stage, open where its SOLANA figure is set: polled every minute as the signing jobs
 * run; its payouts never replaced at a higher fee (a priority fee under a cap, signed again only
 * once expired). SPL Token has no pause: the issuer stops a holder by freezing its account. Its hot
 * wallet is an Ed25519 key, made whether or not the stage opens Solana (its address must be funded
 * with SOL before it does) and granted only where it is open; its deposit addresses' seed is a
 * secret the sweeper alone reads (Ed25519 has no public derivation).
 */
export const solanaStack: NetworkFamilyStack = {
  // A withdrawal or a split may name a token account, which a money route reads on the chain
  // (functions/networks/solana/destinations.ts): the API's and the dashboard's read the node's URL.
  destinationReads: (config) => [nodeUrl(openSolana(config))],
  onStage(stack, config) {
    const settings = openSolana(config);
    const key = hotWalletKey(stack, 'HotWalletKeySolana', `Cambio ${config.stage} hot wallet (solana, Ed25519)`, `alias/cambio-${config.stage}-hot-wallet-solana`, KeySpec.ECC_NIST_EDWARDS25519);
    const openKey = settings ? key : null;
    return {
      open: settings
        ? [
            {
              name: 'solana',
              title: solana.title,
              pollEveryMinutes: config.pollerScheduleMinutes,
              blockMs: solana.blockMs,
              // Its fees and the rent of the token accounts payouts create are SOL.
              gasLow: { feeSymbol: solana.feeAsset.symbol, minimumSetting: 'SOLANA.hotWalletSolMinimum' },
              stuckBecause: 'signed again and again without landing (the hot wallet short of SOL, or the network congested past the priority fee cap),',
              issuerControls: FREEZE_ONLY,
            },
          ]
        : [],
      nodes: [nodeUrl(settings)],
      signing: [hotWalletKeyOf(openKey, 'kms:Sign', 'kms:GetPublicKey')],
      depositAddressKeys: [secretsNamedIn('SolanaDepositSeed', settings?.depositSeedSecret ? [settings.depositSeedSecret] : [])],
      hotWalletAddresses: [hotWalletKeyOf(openKey, 'kms:GetPublicKey')],
      // One partition: the open sweeps, and the marks on the addresses they sweep.
      sweepRecordPartitions: settings ? [solanaSweepItem.open('').PK] : [],
      hotWalletKeys: [key],
    };
  },
};

/** Read access to the node's URL where a secret holds it. */
const nodeUrl = (settings: SolanaNetworkSettings | undefined): Binder => secretsNamedIn('SOLANA', settings?.rpcUrlSecret ? [settings.rpcUrlSecret] : []);

/** Solana's hot wallet key, with `actions` on it, where the stage opens Solana (`key` null: nothing). */
const hotWalletKeyOf = (key: IKey | null, ...actions: string[]): Binder => (fn) => {
  if (!key) return {};
  key.grant(fn, ...actions);
  return { SOLANA_SIGNER_KMS_KEY_ID: key.keyId };
};

/** Solana's settings where the stage opens it (its SOLANA figure), else undefined. */
function openSolana(config: StageConfig): SolanaNetworkSettings | undefined {
  return v.parse(SOLANA_STAGE_SETTINGS.SOLANA, (config.functionEnvironment as { SOLANA?: string }).SOLANA);
}
