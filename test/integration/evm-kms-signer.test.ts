import { SignCommand } from '@aws-sdk/client-kms';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  erc20Abi,
  hexToBigInt,
  hexToBytes,
  keccak256,
  isAddressEqual,
  parseGwei,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  type Address,
  type Hash,
  type TransactionSerializableEIP1559,
  type TransactionSerializableLegacy,
  type TransactionSerialized,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { evmSignerFrom } from '#functions/networks/evm/signer';
import { evmChainOf, evmPayoutsOf } from '#functions/networks/evm/from-settings';
import { parseSettings } from '#functions/settings/schema';
import { SLICES, type SliceSettings } from '#functions/settings/functions';
import { localPublicClient } from '#local/evm-contracts';
import { anvilNetworkSettings, startAnvilWithContracts } from '../support/anvil.ts';
import { mockKms } from '../support/kms.ts';

/**
 * The EVM hot wallet in AWS: each network's own ECC_SECG_P256K1 KMS key (EVM_SIGNER_KMS_KEY_IDS),
 * its address the keccak of the key's public key, transactions signed as a digest. KMS has no local
 * engine, so it is mocked (test/support/kms.ts) by a real secp256k1 key giving real DER signatures
 * without a recovery id, high S among them; the signed transactions are checked by viem's own
 * recovery and on a real anvil node. Anvil takes a high S, which Ethereum's own nodes refuse
 * (EIP-2): the node's copy of each transaction is checked for the low one.
 */
const KEYS = {
  ethereum: hexToBytes('0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63'),
  bsc: hexToBytes('0xc87509a1c067bbde78beb793e6fa76530b6382a4c0241e5e4a9ec0a0f44dc0d3'),
};
const KEY_IDS = { ethereum: 'alias/cambio-sandbox-hot-wallet-ethereum', bsc: 'alias/cambio-sandbox-hot-wallet-bsc' };
const N = secp256k1.Point.CURVE().n;
const accountOf = (key: Uint8Array) => privateKeyToAccount(`0x${Buffer.from(key).toString('hex')}`);
const kmsSettings = (keyIds: Record<string, string>): SliceSettings<'hotWallet'> => parseSettings(SLICES.hotWallet, { SIGNER: 'kms', EVM_SIGNER_KMS_KEY_IDS: JSON.stringify(keyIds) });
/** As the withdrawal sender builds it: evmSignerFrom over the stage's settings. */
const kmsSigner = (network: 'ethereum' | 'bsc') => evmSignerFrom(kmsSettings(KEY_IDS), network);

let kms: ReturnType<typeof mockKms> | undefined;
afterEach(() => kms?.restore());

describe('the KMS EVM signer', () => {
  it("derives each network's hot wallet address from that network's own KMS key", async () => {
    kms = mockKms({ [KEY_IDS.ethereum]: KEYS.ethereum, [KEY_IDS.bsc]: KEYS.bsc }, { highS: false });
    expect(await kmsSigner('ethereum').address()).toBe(accountOf(KEYS.ethereum).address);
    expect(await kmsSigner('bsc').address()).toBe(accountOf(KEYS.bsc).address);
    expect(accountOf(KEYS.ethereum).address).not.toBe(accountOf(KEYS.bsc).address);
  });

  it.each([false, true])(
    'signs EIP-1559 and EIP-155 legacy transactions that recover to the address, with low S, byte for byte as the key itself would (KMS high S: %s)',
    async (highS) => {
      kms = mockKms({ [KEY_IDS.ethereum]: KEYS.ethereum, [KEY_IDS.bsc]: KEYS.bsc }, { highS });
      for (const [network, chainId] of [['ethereum', 1], ['bsc', 56]] as const) {
        const signer = kmsSigner(network);
        const account = accountOf(KEYS[network]);
        for (let nonce = 0; nonce < 6; nonce++) {
          const to = privateKeyToAccount(generatePrivateKey()).address;
          const typed: TransactionSerializableEIP1559 = { type: 'eip1559', chainId, nonce, to, value: BigInt(nonce + 1), gas: 21_000n, maxFeePerGas: parseGwei('30'), maxPriorityFeePerGas: parseGwei('1') };
          const legacy: TransactionSerializableLegacy = { type: 'legacy', chainId, nonce, to, value: BigInt(nonce + 1), gas: 21_000n, gasPrice: parseGwei('3') };
          for (const transaction of [typed, legacy]) {
            const raw = await signer.signTransaction(transaction);
            expect(await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized })).toBe(account.address);
            const parsed = parseTransaction(raw);
            expect(parsed.chainId).toBe(chainId);
            expect(hexToBigInt(parsed.s!) <= N / 2n).toBe(true);
            // RFC 6979 signatures are deterministic: the same key signs the same bytes.
            expect(raw).toBe(await account.signTransaction(transaction));
            // KMS signed the keccak-256 of the unsigned transaction, as a digest, with that network's key.
            expect(kms.commandCalls(SignCommand).at(-1)!.args[0].input).toEqual({
              KeyId: KEY_IDS[network],
              Message: hexToBytes(keccak256(serializeTransaction(transaction))),
              MessageType: 'DIGEST',
              SigningAlgorithm: 'ECDSA_SHA_256',
            });
          }
          // EIP-155: a legacy transaction's v carries the chain id.
          expect([chainId * 2 + 35, chainId * 2 + 36]).toContain(Number(parseTransaction(await signer.signTransaction(legacy)).v));
        }
      }
    },
  );

  it('refuses a network whose key the stage does not name, naming the setting', () => {
    expect(() => evmSignerFrom(kmsSettings({ ethereum: KEY_IDS.ethereum }), 'polygon')).toThrow(/EVM_SIGNER_KMS_KEY_IDS.*polygon/);
  });
});

describe('a KMS-signed payout on a real node', () => {
  let node: Awaited<ReturnType<typeof startAnvilWithContracts>> | undefined;
  afterAll(() => node?.stop());

  it('is accepted, mined from the KMS address, and moves exactly the amount', async () => {
    kms = mockKms({ [KEY_IDS.ethereum]: KEYS.ethereum }, { highS: true });
    // The KMS key's address is the node's hot wallet: given ETH for gas and USDT, owner of the factory.
    node = await startAnvilWithContracts({ chainId: 1, usdtDecimals: 6, hotWallet: accountOf(KEYS.ethereum) });
    const settings = { EVM_NETWORKS: { ethereum: anvilNetworkSettings(node, { chainId: 1, confirmations: 1 }) } } as SliceSettings<'chain'>;
    const signer = kmsSigner('ethereum');
    const payouts = evmPayoutsOf('ethereum', settings, signer, evmChainOf('ethereum', settings));
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const client = localPublicClient(node.chain);

    for (const amount of [1_500_000n, 2_000_000n]) {
      const payout = await payouts.signedTransfer({ nonce: await client.getTransactionCount({ address: (await payouts.wallet()) as Address, blockTag: 'pending' }), to, amount });
      expect(await payouts.broadcast(payout!.raw)).toBe('sent');
      const receipt = await client.waitForTransactionReceipt({ hash: payout!.txHash as Hash });
      expect(receipt.status).toBe('success');
      expect(isAddressEqual(receipt.from, accountOf(KEYS.ethereum).address)).toBe(true);
      expect(hexToBigInt((await client.getTransaction({ hash: payout!.txHash as Hash })).s) <= N / 2n).toBe(true);
    }
    expect(await client.readContract({ address: node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [to as Address] })).toBe(3_500_000n);
  });
});
