import { MAX_BLOCKS_PER_SCAN, scanDeposits, type ScanResult } from '#functions/deposits/deposit-scan';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import { DepositAddressFilter } from '#functions/deposits/deposit-address-filter';
import { EvmChain } from '#functions/networks/evm/evm-chain';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { ADDRESS_KIND, ETHEREUM_USDT_CONTRACT, EvmNode, syntheticEvmAddress, type EvmNodeStats } from '../evm-node.ts';
import { cpuMicrosOfPid } from '../harness.ts';
import type { Scenario } from '../scenario.ts';
import { cpuSeconds, POLL_PASS_COLUMNS, pollPassCells, requestsPerBlockTable, startScannerBench, timedScans, totalRequests, type TimedScans } from '../scanner-setup.ts';
import { formatRate } from '../support.ts';

/** Ethereum makes a block every 12 s. */
const ETHEREUM_BLOCK_SECONDS = 12;
const GOAL_BLOCKS_PER_SECOND = 50;
/** All DynamoDB requests of the polls (scan and confirm) per loaded block. */
const GOAL_REQUESTS_PER_BLOCK = 2;
const BLOCKS = 1000;
const TRANSFERS_PER_BLOCK = 300;
/**
 * Transfers of a block to registered deposit addresses (each a distinct one), the rest to
 * strangers, in the two passes. The goal's pass pays one deposit a block: 1,000 deposits over the
 * 3 h 20 min the blocks stand for, 300 an hour, a busy company. The second pays ten a block
 * (3,000 an hour) and has no blocks/s goal: what it adds is DynamoDB writes, ~9 items a deposit
 * between recording and crediting, which DynamoDB Local runs on this machine's CPU at about 1 ms
 * an item (the TRON scanner's section) and DynamoDB runs on AWS's.
 */
const PASSES = [
  { hitsPerBlock: 1, goal: true },
  { hitsPerBlock: 10, goal: false },
] as const;
/** Ethereum's finalized block trails the head by two epochs, 64 blocks. */
const FINALIZED_DEPTH = 64;
/** Infura's and Alchemy's cap on the logs one eth_getLogs answers. */
const MAX_LOGS_PER_RESPONSE = 10_000;
/** The stage setting's default (functions/networks/evm/settings.ts). */
const MAX_BLOCK_RANGE = 1000;
/** Where the chain stands when the scanner first sees it (about Ethereum's height in 2024). */
const START_HEAD = 21_000_000;

/**
 * The EVM deposit scanner catching up: 100,000 registered deposit addresses in a DynamoDB Local of
 * its own (../scanner-setup.ts), 1,000 Ethereum blocks of 300 USDT transfers behind the cursor,
 * read by the real EvmChain (viem over HTTP JSON-RPC, batched) from a stand-in node
 * (../evm-node.ts), polled as the deposit poller polls: scanDeposits then confirmDeposits, until
 * the cursor reaches the head.
 */
export const evmScannerScenario: Scenario = {
  name: 'evm-scanner',
  title: `EVM deposit scanner (ethereum): catching up ${BLOCKS.toLocaleString('en')} blocks × ${TRANSFERS_PER_BLOCK} USDT transfers against registered deposit addresses`,
  async run({ log }) {
    const hits = PASSES.reduce((sum, pass) => sum + BLOCKS * pass.hitsPerBlock, 0);
    const clock = Date.parse('2026-11-22T00:00:00.000Z');
    const { scanner, registered, seeded } = await startScannerBench('bench-evm-scanner', 'Bench EVM Scanner', { hits, clock, address: (i) => syntheticEvmAddress(ADDRESS_KIND.deposit, i), network: 'ethereum', requiredConfirmations: FINALIZED_DEPTH }, log);
    const { db, tableName, dynamoPid } = scanner;
    const node = new EvmNode();
    const failures: string[] = [];
    try {
      const now = () => new Date(clock);

      const url = await node.start({
        head: START_HEAD,
        chainId: 1,
        transfersPerBlock: TRANSFERS_PER_BLOCK,
        hitAddresses: seeded.hitAddresses,
        hitEvery: TRANSFERS_PER_BLOCK / PASSES[0].hitsPerBlock,
        finalizedDepth: FINALIZED_DEPTH,
        maxLogsPerResponse: MAX_LOGS_PER_RESPONSE,
      });
      const chain = new EvmChain({ rpcUrl: url, finalizedTag: true, confirmations: FINALIZED_DEPTH, maxBlockRange: MAX_BLOCK_RANGE, tokenDecimals: 6, tokenControls: 'tether' });
      const store = new DynamoDepositChainStore(db, tableName, 'ethereum');
      const deps = { network: 'ethereum' as const, chain, store, usdtContract: ETHEREUM_USDT_CONTRACT, now };
      const cursor = new DynamoScanCursor(db, tableName, `ethereum:1:${ETHEREUM_USDT_CONTRACT}`);
      // Kept across polls as the poller keeps it: the first (not measured) loads it whole.
      const addresses = new DepositAddressFilter(store, now);
      let confirmed = 0;
      // pollDeposits without its expiry (one GSI1 query a run, of deposits past theirs: none here).
      const poll = async (): Promise<ScanResult> => {
        const scan = await scanDeposits({ ...deps, cursor, owner: 'bench-evm-scanner', addresses });
        // Credited as recorded (already final when seen), or by the confirmer.
        confirmed += scan.credited + (await confirmDeposits(deps)).confirmed;
        return scan;
      };
      await poll();

      const passes: MeasuredPass[] = [];
      let stillConfirming = 0;
      for (const pass of PASSES) {
        const label = `catch-up: ${BLOCKS} blocks, ${pass.hitsPerBlock} of ${TRANSFERS_PER_BLOCK} transfers a block paying a deposit`;
        const latest = await node.mine(BLOCKS, TRANSFERS_PER_BLOCK / pass.hitsPerBlock);
        log(`  ${label} (scan + confirm, as the poller runs them)`);
        const nodeBefore = await node.stats();
        const nodeCpuBefore = await cpuMicrosOfPid(node.pid);
        const confirmedBefore = confirmed;
        const result = await timedScans(poll, latest, dynamoPid);
        const nodeCpuAfter = await cpuMicrosOfPid(node.pid);
        const credited = confirmed - confirmedBefore;
        const paid = BLOCKS * pass.hitsPerBlock;
        // Credited: this pass's transfers 64 or more blocks behind the head, and the last pass's that were not.
        const expectedCredits = stillConfirming + (BLOCKS - FINALIZED_DEPTH) * pass.hitsPerBlock;
        stillConfirming = FINALIZED_DEPTH * pass.hitsPerBlock;
        if (result.recorded !== paid) failures.push(`${label}: recorded ${result.recorded} transfers, expected ${paid}`);
        if (result.transfersSeen < BLOCKS * TRANSFERS_PER_BLOCK) failures.push(`${label}: saw ${result.transfersSeen} transfers, expected ≥ ${BLOCKS * TRANSFERS_PER_BLOCK}`);
        if (credited !== expectedCredits) failures.push(`${label}: credited ${credited} transfers, expected ${expectedCredits}`);
        passes.push({ ...pass, label, result, credited, rpc: callsSince(nodeBefore, await node.stats()), nodeCpuMicros: nodeCpuBefore === null || nodeCpuAfter === null ? null : nodeCpuAfter - nodeCpuBefore });
      }

      const blocksPerSecond = (pass: MeasuredPass) => BLOCKS / pass.result.seconds;
      const requestsPerBlock = (pass: MeasuredPass) => totalRequests(pass.result) / BLOCKS;
      const methods = [...new Set(passes.flatMap((pass) => Object.keys(pass.rpc.calls)))].sort();
      return {
        name: 'evm-scanner',
        title: this.title,
        summaries: [],
        tables: [
          {
            title: 'Setup (not part of the measurement)',
            columns: ['step', 'items', 'DynamoDB requests', 'seconds', 'items/s'],
            rows: [[`DepositAddress and DepositAddressListed items (synthetic EIP-55 addresses) + Deposit items for the ${hits} paid ones, BatchWrite`, seeded.items, seeded.requests, seeded.seconds.toFixed(1), Math.round(seeded.items / seeded.seconds)]],
          },
          {
            title: `Scanner throughput (${registered.toLocaleString('en')} registered addresses, ${TRANSFERS_PER_BLOCK} transfers a block)`,
            columns: ['pass', ...POLL_PASS_COLUMNS, 'blocks/s', 'transfers/s', 'vs Ethereum (1 block / 12 s)', 'scanner CPU s', 'DynamoDB Local CPU s', 'node CPU s'],
            rows: passes.map((pass) => [
              pass.label,
              ...pollPassCells(pass),
              blocksPerSecond(pass).toFixed(1),
              Math.round(pass.result.transfersSeen / pass.result.seconds),
              `${(blocksPerSecond(pass) * ETHEREUM_BLOCK_SECONDS).toFixed(0)}x`,
              cpuSeconds(pass.result.cpuMicros),
              cpuSeconds(pass.result.dynamoCpuMicros),
              cpuSeconds(pass.nodeCpuMicros),
            ]),
          },
          requestsPerBlockTable(BLOCKS, passes.map(({ label, result }) => ({ label, result }))),
          {
            title: 'JSON-RPC the node answered during each catch-up',
            columns: ['pass', 'HTTP requests', ...methods, 'eth_getLogs refused (over 10,000 logs)'],
            rows: passes.map((pass) => [pass.label, pass.rpc.httpRequests, ...methods.map((method) => pass.rpc.calls[method] ?? 0), pass.rpc.refusedGetLogs]),
          },
        ],
        goals: passes.flatMap((pass) => [
          {
            goal: `≤ ${GOAL_REQUESTS_PER_BLOCK} DynamoDB requests per loaded block (${pass.label})`,
            met: requestsPerBlock(pass) <= GOAL_REQUESTS_PER_BLOCK,
            detail: `${formatRate(requestsPerBlock(pass))} per block, the address filter holding ${addresses.size.toLocaleString('en')} addresses`,
          },
          ...(pass.goal
            ? [
                {
                  goal: `catch up at ≥ ${GOAL_BLOCKS_PER_SECOND} blocks/s (${pass.label})`,
                  met: blocksPerSecond(pass) >= GOAL_BLOCKS_PER_SECOND,
                  detail: `${blocksPerSecond(pass).toFixed(1)} blocks/s over the ${BLOCKS} blocks, ${(blocksPerSecond(pass) * ETHEREUM_BLOCK_SECONDS).toFixed(0)}× Ethereum's rate`,
                },
              ]
            : []),
        ]),
        failures,
        notes: [
          `The chain is the real EvmChain (viem, HTTP JSON-RPC with batching) reading a stand-in node in a child process (bench/evm-node-child.ts; 300,000 transfers mined on anvil would take longer than the bench): it serves eth_blockNumber, eth_getBlockByNumber (finalized = ${FINALIZED_DEPTH} blocks behind the head), eth_getLogs (Transfer logs of Ethereum's USDT ABI-encoded by viem, encoded as each block is mined) and eth_getTransactionReceipt, single and batched, from made-up blocks. Its CPU is not the scanner's (column "node CPU s").`,
          `Ranges: the chain asks for up to ${MAX_BLOCK_RANGE} blocks at once (the stage setting's default maxBlockRange), so a run's ${MAX_BLOCKS_PER_SCAN} + 20 overlap blocks are one ask; the node refuses an answer of more than ${MAX_LOGS_PER_RESPONSE.toLocaleString('en')} logs with Infura's error (-32005, "query returned more than 10000 results"), as Infura and Alchemy do, so at ${TRANSFERS_PER_BLOCK} transfers a block the scanner splits every run's range, as it would on mainnet.`,
          `Each run scans at most ${MAX_BLOCKS_PER_SCAN} new blocks (MAX_BLOCKS_PER_SCAN) plus the 20-block overlap, so a catch-up is ${Math.ceil(BLOCKS / MAX_BLOCKS_PER_SCAN)} polls back to back; blocks/s is over the whole catch-up. The passes run one after the other on the same table, filter and chain. Registered addresses are synthetic ("0xde…", EIP-55); the ${hits} paid ones each get one transfer, with a Deposit awaiting payment; strangers and payers are distinct synthetic addresses. Credited: transfers in blocks ${FINALIZED_DEPTH} or more behind the head, the rest still confirming (credited in the next pass).`,
          `The blocks/s goal is the first pass's: the second, ten deposits a block, measures what DynamoDB Local's writes cost on this machine (see PASSES in bench/scenarios/evm-scanner.ts).`,
        ],
      };
    } finally {
      await node.close();
      await scanner.stop();
    }
  },
};

interface MeasuredPass {
  hitsPerBlock: number;
  goal: boolean;
  label: string;
  result: TimedScans;
  credited: number;
  rpc: EvmNodeStats;
  nodeCpuMicros: number | null;
}

function callsSince(before: EvmNodeStats, after: EvmNodeStats): EvmNodeStats {
  const calls = Object.fromEntries(Object.entries(after.calls).map(([method, n]) => [method, n - (before.calls[method] ?? 0)]).filter(([, n]) => (n as number) > 0));
  return { httpRequests: after.httpRequests - before.httpRequests, calls, refusedGetLogs: after.refusedGetLogs - before.refusedGetLogs };
}
