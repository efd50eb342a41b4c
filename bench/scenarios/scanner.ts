import { scanDeposits, type ScanResult } from '#functions/deposits/deposit-scan';
import { inParallel } from '#functions/shared/in-parallel';
import { parseAmount } from '#functions/shared/money';
import { SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { DepositAddressFilter } from '#functions/deposits/deposit-address-filter';
import { MAINNET_USDT_CONTRACT } from '../../config/stages.ts';
import type { Scenario } from '../scenario.ts';
import { cpuSeconds, requestsPerBlockTable, startScannerBench, timedScans, totalRequests } from '../scanner-setup.ts';
import { formatRate } from '../support.ts';

/** TRON produces a block every 3 s. */
const TRON_BLOCK_MS = 3000;
const TRON_BLOCKS_PER_SECOND = 1000 / TRON_BLOCK_MS;
/** The goal: scan at least 10× as fast as the chain produces blocks. */
const GOAL_FACTOR = 10;
/** The goal: DynamoDB requests per loaded block in the catch-up pass, all of them counted (in the
 * bench the chain itself is the sandbox's, in DynamoDB). */
const GOAL_REQUESTS_PER_BLOCK = 2;
const BLOCKS = 20;
const TRANSFERS_PER_BLOCK = 300;
/** One transfer in ten goes to a registered deposit address; the rest to addresses we do not know. */
const HIT_EVERY = 10;
const SUBMIT_CONCURRENCY = 32;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * The deposit scanner's throughput, no HTTP: a DynamoDB Local and a table of its own
 * (../scanner-setup.ts) with 100,000 registered deposit addresses, 20 blocks of 300 USDT transfers on the sandbox chain
 * (fake clock), then scanDeposits until caught up, then the next run's re-scan of the overlap.
 */
export const scannerScenario: Scenario = {
  name: 'scanner',
  title: `Deposit scanner: ${BLOCKS} blocks × ${TRANSFERS_PER_BLOCK} USDT transfers against registered deposit addresses`,
  async run({ log }) {
    const transfers = BLOCKS * TRANSFERS_PER_BLOCK;
    const hits = Math.ceil(transfers / HIT_EVERY);
    let clock = Date.parse('2026-11-22T00:00:00.000Z');
    // Setup 1: the registered addresses (synthetic base58 strings; the scanner never checks
    // them, it looks up what the chain reports) and real Deposit items for the ones paid to.
    const { scanner, registered, seeded } = await startScannerBench('bench-scanner', 'Bench Scanner', { hits, clock, address: (i) => syntheticAddress('TBench', i), network: 'tron', requiredConfirmations: 19 }, log);
    const { db, tableName, dynamoPid } = scanner;
    const failures: string[] = [];
    try {
      const now = () => new Date(clock);
      const { hitAddresses } = seeded;

      // The chain: 100 empty blocks, then a first scan that places the cursor at the head.
      const chain = new SandboxChain(db, tableName, { blockIntervalMs: TRON_BLOCK_MS, solidifyAfter: 19, now: () => clock });
      const store = new DynamoDepositChainStore(db, tableName, 'tron');
      const cursor = new DynamoScanCursor(db, tableName, 'bench-tron-usdt');
      // One filter for every run, as the poller keeps one across warm invocations: the first scan
      // (not measured) loads it whole, the measured ones read only what was listed since.
      const addresses = new DepositAddressFilter(store, now);
      const scan = (): Promise<ScanResult> => scanDeposits({ network: 'tron', chain, store, usdtContract: MAINNET_USDT_CONTRACT, now, cursor, owner: 'bench-scanner', addresses });
      clock += 100 * TRON_BLOCK_MS;
      await scan();
      const head = (await chain.latestBlock()).number;

      // Setup 2: the transfers, block by block (each goes to latest + 1, which only the clock moves).
      log(`  submitting ${BLOCKS} blocks × ${TRANSFERS_PER_BLOCK} transfers (1 in ${HIT_EVERY} to a registered address)`);
      const submitStarted = performance.now();
      let hit = 0;
      let stranger = 0;
      for (let block = 0; block < BLOCKS; block++) {
        const inputs = Array.from({ length: TRANSFERS_PER_BLOCK }, (_, t) => ({
          contract: MAINNET_USDT_CONTRACT,
          from: syntheticAddress('TPayer', block * TRANSFERS_PER_BLOCK + t),
          to: t % HIT_EVERY === 0 ? hitAddresses[hit++]! : syntheticAddress('TStranger', stranger++),
          amount: parseAmount('12.5', 'USDT'),
        }));
        await inParallel(inputs, SUBMIT_CONCURRENCY, (input) => chain.submitTransfer(input));
        clock += TRON_BLOCK_MS;
      }
      const submitSeconds = (performance.now() - submitStarted) / 1000;
      const latest = (await chain.latestBlock()).number;
      if (latest !== head + BLOCKS) failures.push(`expected the chain head at ${head + BLOCKS}, found ${latest}`);

      // The measurement: scan until caught up.
      log('  scanning until caught up');
      const catchUp = await timedScans(scan, latest, dynamoPid);
      if (catchUp.recorded !== hits) failures.push(`catch-up recorded ${catchUp.recorded} transfers, expected ${hits}`);
      if (catchUp.transfersSeen < transfers) failures.push(`catch-up saw ${catchUp.transfersSeen} transfers, expected ≥ ${transfers}`);

      // The next run, 20 empty blocks later: its 20-block overlap re-reads the loaded blocks.
      clock += BLOCKS * TRON_BLOCK_MS;
      log('  next run: 20 new empty blocks + the overlap re-scan of the loaded ones');
      const overlap = await timedScans(scan, latest + BLOCKS, dynamoPid);
      if (overlap.recorded !== 0) failures.push(`the overlap re-scan recorded ${overlap.recorded} transfers again`);

      const requestsPerBlock = totalRequests(catchUp) / BLOCKS;
      if (requestsPerBlock > GOAL_REQUESTS_PER_BLOCK) failures.push(`catch-up sent ${formatRate(requestsPerBlock)} DynamoDB requests per block, above the goal of ${GOAL_REQUESTS_PER_BLOCK}`);
      const blocksPerSecond = BLOCKS / catchUp.seconds;
      const bothPasses = BLOCKS / (catchUp.seconds + overlap.seconds);
      const phases = [
        { label: 'catch-up: 20 loaded blocks (+ 20 empty overlap blocks before them)', result: catchUp },
        { label: 'next run: 20 empty blocks + re-scan of the 20 loaded blocks (overlap)', result: overlap },
      ];
      return {
        name: 'scanner',
        title: this.title,
        summaries: [],
        tables: [
          {
            title: 'Setup (not part of the measurement)',
            columns: ['step', 'items', 'DynamoDB requests', 'seconds', 'items/s'],
            rows: [
              [`DepositAddress and DepositAddressListed items (synthetic addresses) + Deposit items for the ${hits} paid ones, BatchWrite`, seeded.items, seeded.requests, seeded.seconds.toFixed(1), Math.round(seeded.items / seeded.seconds)],
              [`sandbox transfers, SandboxChain.submitTransfer (one TransactWrite each, ${SUBMIT_CONCURRENCY} at a time)`, transfers, transfers, submitSeconds.toFixed(1), Math.round(transfers / submitSeconds)],
            ],
          },
          {
            title: `Scanner throughput (${registered.toLocaleString('en')} registered addresses; per block: ${TRANSFERS_PER_BLOCK} transfers, ${TRANSFERS_PER_BLOCK / HIT_EVERY} to registered addresses)`,
            columns: ['pass', 'scan runs', 'transfers read', 'recorded', 'seconds', 'blocks/s', 'transfers/s', 'vs TRON (1 block / 3 s)', 'scanner CPU s', 'DynamoDB Local CPU s'],
            rows: phases.map(({ label, result }) => [
              label,
              result.runs,
              result.transfersSeen,
              result.recorded,
              result.seconds.toFixed(2),
              (BLOCKS / result.seconds).toFixed(1),
              Math.round(result.transfersSeen / result.seconds),
              `${(BLOCKS / result.seconds / TRON_BLOCKS_PER_SECOND).toFixed(1)}x`,
              cpuSeconds(result.cpuMicros),
              cpuSeconds(result.dynamoCpuMicros),
            ]),
          },
          requestsPerBlockTable(BLOCKS, phases),
        ],
        goals: [
          {
            goal: `≤ ${GOAL_REQUESTS_PER_BLOCK} DynamoDB requests per loaded block (catch-up)`,
            met: requestsPerBlock <= GOAL_REQUESTS_PER_BLOCK,
            detail: `${formatRate(requestsPerBlock)} per block, the address filter holding ${addresses.size.toLocaleString('en')} addresses`,
          },
          {
            goal: `scan ≥ ${GOAL_FACTOR}× TRON's block rate (≥ ${(GOAL_FACTOR * TRON_BLOCKS_PER_SECOND).toFixed(1)} blocks/s)`,
            met: blocksPerSecond >= GOAL_FACTOR * TRON_BLOCKS_PER_SECOND,
            detail: `catch-up ${blocksPerSecond.toFixed(1)} blocks/s = ${(blocksPerSecond / TRON_BLOCKS_PER_SECOND).toFixed(1)}× TRON; counting the overlap re-scan every block gets, ${bothPasses.toFixed(1)} blocks/s = ${(bothPasses / TRON_BLOCKS_PER_SECOND).toFixed(1)}× TRON`,
          },
        ],
        failures,
        notes: [
          `A DynamoDB Local of its own (in memory, one table), started for this scenario: on the runtime's, a second table was 2–30× slower than the first. Registered addresses are synthetic base58 strings ("TBench…"), not derived ones (derivation costs ~1 ms each); the transfers use the same strings. Only the ${hits} paid addresses have Deposit items (seeTransfer reads the deposit); strangers are ${transfers - hits} distinct "TStranger…" addresses.`,
          `Mix: every ${HIT_EVERY}th transfer of a block goes to a distinct registered address with a deposit awaiting payment (recipients are matched in memory by the address filter; the paid deposits are read in one consistent BatchGet per 100 and written in batched TransactWrites of deposit, transfer record, ledger entry and event, one balance update per company); the rest go to unknown addresses and cost no read. Block interval ${TRON_BLOCK_MS} ms on a fake clock.`,
          'scanDeposits only (the poller also runs confirmDeposits and expireDeposits, not measured here). Recording is sequential within a run: the transactions for a block are sent one after another.',
        ],
      };
    } finally {
      await scanner.stop();
    }
  },
};

/** A 34-character base58 string that looks like a TRON address (not a valid checksum). */
function syntheticAddress(prefix: string, n: number): string {
  let digits = '';
  do {
    digits = BASE58[n % 58] + digits;
    n = Math.floor(n / 58);
  } while (n > 0);
  return prefix + digits.padStart(34 - prefix.length, '1');
}
