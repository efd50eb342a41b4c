import * as v from 'valibot';
import { MAX_BLOCKS_PER_SCAN, SCAN_OVERLAP_BLOCKS, scanDeposits, type ScanResult } from '#functions/deposits/deposit-scan';
import { confirmDeposits, releaseUnfrozen } from '#functions/deposits/deposit-confirmation';
import { DepositAddressFilter } from '#functions/deposits/deposit-address-filter';
import type { DepositHolds } from '#functions/deposits/deposit-chain';
import { chainsOf } from '#functions/networks/chain-registry';
import { solanaNetworkSettings } from '#functions/networks/solana/settings';
import { SLICES, type SliceSettings } from '#functions/settings/functions';
import { parseSettings } from '#functions/settings/schema';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { screeningListOf } from '#adapters/dynamo/screening-store';
import { FINALITY_DEPTH, SLOT_INTERVAL_MS } from '#local/solana-node';
import { STAGES } from '../../config/stages.ts';
import { cpuMicrosOfPid } from '../harness.ts';
import { countRpcCalls, rpcCallCounts, rpcCallsSince } from '../rpc-calls.ts';
import type { ResultTable, Scenario } from '../scenario.ts';
import { cpuSeconds, POLL_PASS_COLUMNS, pollPassCells, startScannerBench, timedScans, totalRequests, type TimedScans } from '../scanner-setup.ts';
import { MAINNET_FILLER, SOLANA_ADDRESS_KIND, syntheticSolanaAddress, type LoadedSlots } from '../solana-backlog.ts';
import { SolanaNodeProcess } from '../solana-node.ts';
import { formatRate, operationName } from '../support.ts';

/** Solana makes a slot every 400 ms (mainnet's target): 2.5 a second, 150 a minute. */
const SOLANA_SLOTS_PER_SECOND = 1000 / SLOT_INTERVAL_MS;
/**
 * The catch-up goal with mainnet's blocks: ≥ 5× the chain's rate (≥ 12.5 slots/s) while scanning.
 * Deployed, the poller scans for 30 s of each one-minute run (CATCH_UP_MS,
 * functions/handlers/jobs/deposit-poller.ts), half of its time: 5× while scanning is 2.5× over the
 * minute, so a poller down for an hour (9,000 slots) is back at the head some 40 minutes after it
 * returns (9,000 ÷ (6.25 − 2.5) s), and one that is merely slow never falls behind. Below 2× it
 * could not keep up at all.
 */
const GOAL_FACTOR_MAINNET_BLOCKS = 5;
/**
 * The catch-up goal on the local node's small blocks: ≥ 10× (≥ 25 slots/s), the TRON scanner's
 * goal. With 10 transactions a block, this is the scanner's own cost a slot beside the JSON it
 * parses (the poll's logic, the address filter, DynamoDB): a regression there shows here.
 */
const GOAL_FACTOR_LOCAL = 10;
/** The goal: DynamoDB requests per loaded slot, every poll's (scan, confirm, release), as the other scanners'. */
const GOAL_REQUESTS_PER_SLOT = 2;
/** The goal: getBlock per slot: one each, plus the overlap's re-read (20 of every 220 read) and the
 * head's block, read by the scan and twice by the confirmer (final and latest) each poll: 223 for
 * 200 slots, 1.115. */
const GOAL_GET_BLOCK_PER_SLOT = 1.15;
/** USDT transfers a slot: of mainnet's order (Solana's USDT moves some hundreds of thousands to a
 * million times a day, 2–5 a slot), generous. */
const TRANSFERS_PER_SLOT = 10;
/** One slot in ten pays a deposit (its first transfer, to a distinct registered address): 900
 * deposits an hour at mainnet's pace, three times the EVM scenario's busy company. */
const HIT_EVERY_SLOTS = 10;
/** The provider's time per request in the second pass: a round trip and a large block's download. */
const PROVIDER_LATENCY_MS = 250;

interface Pass {
  slots: number;
  /** Each answer held this long by the proxy (0: none). */
  latencyMs: number;
  /** Each block padded by the proxy to a mainnet block's size. */
  mainnetBlocks: boolean;
  /** The catch-up goal, × the chain's rate; null: reported, not judged. */
  goalFactor: number | null;
}

/**
 * The passes, on the same table, cursor and address filter, one after the other. The first reads
 * the local node (an answer in well under a millisecond, blocks of the scenario's 10 transfers);
 * the others read it through a proxy in the node's process (../solana-backlog.ts startNodeProxy)
 * adding one thing a mainnet provider has: every answer held 250 ms, or every block padded to a
 * mainnet block's size (1,300 more transactions, ~1.3 MB of JSON, none moving USDT). The second has
 * no goal: its bound is arithmetic (4 getBlock in flight ÷ 250 ms), a setting against a provider's
 * latency, not this machine's work.
 */
const PASSES: readonly Pass[] = [
  { slots: 1000, latencyMs: 0, mainnetBlocks: false, goalFactor: GOAL_FACTOR_LOCAL },
  { slots: 200, latencyMs: PROVIDER_LATENCY_MS, mainnetBlocks: false, goalFactor: null },
  { slots: 200, latencyMs: 0, mainnetBlocks: true, goalFactor: GOAL_FACTOR_MAINNET_BLOCKS },
];

/**
 * The Solana deposit scanner catching up: 100,000 registered deposit addresses in a DynamoDB Local
 * of its own (../scanner-setup.ts), a backlog of 1,000 slots of 10 USDT transfers each behind the
 * cursor on the local node (the real runtime, in a child process: ../solana-node.ts), each a real
 * transaction from the node's customer wallet (one in ten slots paying a deposit address, the rest
 * strangers), read by the real chain as the deposit poller connects it (SolanaRpcChain over the
 * stage's SOLANA: getBlocks, then each slot's block, 4 at a time) and polled as the poller polls:
 * scanDeposits while behind, then confirmDeposits (credits at `finalized`) and releaseUnfrozen,
 * until the cursor reaches the head. Reported in slots a second and as a ratio to the chain's own
 * 2.5 slots a second.
 *
 * How to read it: the local node answers each getBlock in a fraction of a millisecond and its
 * blocks hold only the scenario's transfers, so the first pass is the scanner's own cost per slot
 * beside its reads, an upper bound. A provider adds a round trip per request and serves mainnet's
 * blocks of 1,500–2,000 transactions (votes, swaps; 1–3 MB of JSON with transactionDetails
 * `accounts`): the second pass holds every answer 250 ms (with 4 getBlock in flight, about
 * 4 ÷ 0.25 s = 16 slots/s is then the bound, whatever the scanner does), the third pads every block
 * to 1,300 transactions more (~1.3 MB, the low end), which the scanner must parse whole: its CPU per
 * slot there is what a deployed poller spends. Deployed, both add up, and the poller scans for half
 * of each minute.
 */
export const solanaScannerScenario: Scenario = {
  name: 'solana-scanner',
  title: `Solana deposit scanner: catching up ${PASSES[0]!.slots.toLocaleString('en')} slots × ${TRANSFERS_PER_SLOT} USDT transfers against registered deposit addresses`,
  async run({ log }) {
    const hits = PASSES.reduce((sum, pass) => sum + Math.ceil(pass.slots / HIT_EVERY_SLOTS), 0);
    const clock = Date.parse('2026-11-22T00:00:00.000Z');
    const { scanner, registered, seeded } = await startScannerBench('bench-solana-scanner', 'Bench Solana Scanner', { hits, clock, address: (i) => syntheticSolanaAddress(SOLANA_ADDRESS_KIND.deposit, i), network: 'solana', requiredConfirmations: FINALITY_DEPTH }, log);
    const { db, tableName, dynamoPid } = scanner;
    const node = new SolanaNodeProcess();
    countRpcCalls();
    const failures: string[] = [];
    try {
      const now = () => new Date(clock);
      log('  starting the local Solana node in a child process (slots moved by the scenario)');
      const started = await node.start(null, false);
      // As the deposit poller connects its chain (functions/handlers/jobs/deposit-poller.ts pollerOf),
      // from the `chain` settings with SOLANA naming the node (or the proxy in front of it).
      const connect = (rpcUrl: string) => {
        const local = parseSettings(SLICES.chain, { ...STAGES.local.functionEnvironment }) as SliceSettings<'chain'>;
        const settings: SliceSettings<'chain'> = { ...local, SOLANA: v.parse(solanaNetworkSettings, { rpcUrl, usdtMint: started.mint, sandbox: true }) };
        return chainsOf('solana').connect(db, tableName, settings);
      };
      const direct = connect(started.url);
      const store = new DynamoDepositChainStore(db, tableName, 'solana');
      const cursor = new DynamoScanCursor(db, tableName, direct.settings.cursorName, direct.settings.previousCursorNames);
      // Kept across polls as the poller keeps it: the first poll (not measured) loads it whole.
      const addresses = new DepositAddressFilter(store, now);
      const screening = screeningListOf(db, tableName);
      let confirmed = 0;
      const pollerOf = ({ chain, settings }: ReturnType<typeof connect>) => {
        const holds: DepositHolds = {
          frozenAddresses: (owners) => chain.frozenAmong(settings.usdtContract, owners),
          sanctioned: (owners) => screening.listed('solana', owners),
          usdtAt: (owners) => chain.usdtBalances(settings.usdtContract, owners),
        };
        const deps = { network: 'solana' as const, chain, store, usdtContract: settings.usdtContract, holds, now };
        // pollDeposits without its expiry (one GSI1 query a run, of deposits past theirs: none here).
        return async (): Promise<ScanResult> => {
          const scan = await scanDeposits({ ...deps, cursor, owner: 'bench-solana-scanner', addresses });
          confirmed += scan.credited + (await confirmDeposits(deps)).confirmed;
          await releaseUnfrozen(deps);
          return scan;
        };
      };
      // The cursor placed at the head: the backlog comes after it.
      await pollerOf(direct)();

      const passes: MeasuredPass[] = [];
      let hitsUsed = 0;
      let firstStranger = 0;
      let stillConfirming = 0;
      for (const pass of PASSES) {
        const label = pass.latencyMs
          ? `catch-up: ${pass.slots} slots, each answer held ${pass.latencyMs} ms`
          : pass.mainnetBlocks
            ? `catch-up: ${pass.slots} slots padded to mainnet's size (+${MAINNET_FILLER.voteSized + MAINNET_FILLER.tokenSized} transactions a block)`
            : `catch-up: ${pass.slots} slots from the local node`;
        log(`  filling ${pass.slots} slots × ${TRANSFERS_PER_SLOT} USDT transfers (one slot in ${HIT_EVERY_SLOTS} paying a deposit address)`);
        // The first pass's first slot is after the head the cursor was placed at; the next pass's is the
        // last pass's trailing slot, not scanned yet: each pass scans exactly its own slots.
        const loaded = await node.fill({ slots: pass.slots, advanceFirst: passes.length === 0, transfersPerSlot: TRANSFERS_PER_SLOT, hitEvery: HIT_EVERY_SLOTS, hitAddresses: seeded.hitAddresses, firstStranger }, hitsUsed);
        hitsUsed += loaded.hits;
        firstStranger += loaded.strangers;
        const latest = await node.slot();
        const poll = pollerOf(pass.latencyMs || pass.mainnetBlocks ? connect(await node.proxy({ latencyMs: pass.latencyMs, mainnetBlocks: pass.mainnetBlocks })) : direct);
        log(`  ${label} (scan + confirm + release, as the poller runs them)`);
        const rpcBefore = new Map(rpcCallCounts);
        const nodeCpuBefore = await cpuMicrosOfPid(node.pid);
        const confirmedBefore = confirmed;
        // Up to the last loaded slot: the scans read 200 at a time, so a pass of whole hundreds of
        // slots is whole polls (the head, one empty slot further, is the next pass's first).
        const result = await timedScans(poll, loaded.lastSlot, dynamoPid);
        const nodeCpuAfter = await cpuMicrosOfPid(node.pid);
        const rpc = rpcCallsSince(rpcBefore);
        const credited = confirmed - confirmedBefore;
        // Credited: this pass's payments in slots final at the head (32 behind it), and the last pass's that were not.
        const final = latest - FINALITY_DEPTH;
        const finalHits = Array.from({ length: pass.slots }, (_, s) => s).filter((s) => s % HIT_EVERY_SLOTS === 0 && loaded.firstSlot + s <= final).length;
        const expectedCredits = stillConfirming + finalHits;
        stillConfirming = loaded.hits - finalHits;
        if (result.recorded !== loaded.hits) failures.push(`${label}: recorded ${result.recorded} transfers, expected ${loaded.hits}`);
        if (result.transfersSeen < loaded.transactions) failures.push(`${label}: saw ${result.transfersSeen} transfers, expected ≥ ${loaded.transactions}`);
        if (credited !== expectedCredits) failures.push(`${label}: credited ${credited} transfers, expected ${expectedCredits}`);
        passes.push({ ...pass, label, loaded, result, credited, rpc, nodeCpuMicros: nodeCpuBefore === null || nodeCpuAfter === null ? null : nodeCpuAfter - nodeCpuBefore });
        log(`  ${(pass.slots / result.seconds).toFixed(1)} slots/s, ${(pass.slots / result.seconds / SOLANA_SLOTS_PER_SECOND).toFixed(1)}× the chain`);
      }

      const slotsPerSecond = (pass: MeasuredPass) => pass.slots / pass.result.seconds;
      const ratio = (pass: MeasuredPass) => slotsPerSecond(pass) / SOLANA_SLOTS_PER_SECOND;
      const requestsPerSlot = (pass: MeasuredPass) => totalRequests(pass.result) / pass.slots;
      const rpcTotal = (pass: MeasuredPass) => Object.values(pass.rpc).reduce((sum, n) => sum + n, 0);
      const getBlockPerSlot = (pass: MeasuredPass) => (pass.rpc.getBlock ?? 0) / pass.slots;
      const methods = [...new Set(passes.flatMap((pass) => Object.keys(pass.rpc)))].sort();
      return {
        name: 'solana-scanner',
        title: this.title,
        summaries: [],
        tables: [
          {
            title: 'Setup (not part of the measurement)',
            columns: ['step', 'items / transactions', 'DynamoDB requests', 'seconds', 'per second'],
            rows: [
              [`DepositAddress and DepositAddressListed items (synthetic 32-byte addresses) + Deposit items for the ${hits} paid ones, BatchWrite`, seeded.items, seeded.requests, seeded.seconds.toFixed(1), Math.round(seeded.items / seeded.seconds)],
              ...passes.map((pass) => [`${pass.slots} slots of ${TRANSFERS_PER_SLOT} USDT transactions on the node (signed by its customer wallet, sent in a JSON-RPC batch a slot with preflight)`, pass.loaded.transactions, 0, pass.loaded.seconds.toFixed(1), Math.round(pass.loaded.transactions / pass.loaded.seconds)]),
            ],
          },
          {
            title: `Scanner throughput (${registered.toLocaleString('en')} registered addresses; per slot ${TRANSFERS_PER_SLOT} transfers, one slot in ${HIT_EVERY_SLOTS} paying a deposit)`,
            columns: ['pass', ...POLL_PASS_COLUMNS, 'slots/s', 'vs Solana (2.5 slots/s)', 'scanner CPU s', 'scanner CPU ms a slot', 'DynamoDB Local CPU s', 'node CPU s'],
            rows: passes.map((pass) => [
              pass.label,
              ...pollPassCells(pass),
              slotsPerSecond(pass).toFixed(1),
              `${ratio(pass).toFixed(1)}x`,
              cpuSeconds(pass.result.cpuMicros),
              (pass.result.cpuMicros / 1000 / pass.slots).toFixed(1),
              cpuSeconds(pass.result.dynamoCpuMicros),
              cpuSeconds(pass.nodeCpuMicros),
            ]),
          },
          perSlotTable(
            'DynamoDB requests per loaded slot',
            passes.map((pass) => ({ label: pass.label, slots: pass.slots, counts: pass.result.requests })),
            operationName,
          ),
          perSlotTable(
            'JSON-RPC requests per loaded slot (the scanner\'s, counted at its fetch)',
            passes.map((pass) => ({ label: pass.label, slots: pass.slots, counts: Object.fromEntries(methods.map((method) => [method, pass.rpc[method] ?? 0])) })),
          ),
        ],
        goals: passes.flatMap((pass) => [
          {
            goal: `≤ ${GOAL_REQUESTS_PER_SLOT} DynamoDB requests per loaded slot (${pass.label})`,
            met: requestsPerSlot(pass) <= GOAL_REQUESTS_PER_SLOT,
            detail: `${formatRate(requestsPerSlot(pass))} per slot, the address filter holding ${addresses.size.toLocaleString('en')} addresses`,
          },
          {
            goal: `≤ ${GOAL_GET_BLOCK_PER_SLOT} getBlock per slot (${pass.label})`,
            met: getBlockPerSlot(pass) <= GOAL_GET_BLOCK_PER_SLOT,
            detail: `${formatRate(getBlockPerSlot(pass))} getBlock, ${formatRate(rpcTotal(pass) / pass.slots)} JSON-RPC requests in all per slot`,
          },
          ...(pass.goalFactor !== null
            ? [
                {
                  goal: `catch up at ≥ ${pass.goalFactor}× Solana's slot rate, ≥ ${pass.goalFactor * SOLANA_SLOTS_PER_SECOND} slots/s (${pass.label})`,
                  met: ratio(pass) >= pass.goalFactor,
                  detail: `${slotsPerSecond(pass).toFixed(1)} slots/s over the ${pass.slots} slots, ${ratio(pass).toFixed(1)}× the chain's 2.5 slots/s`,
                },
              ]
            : []),
        ]),
        failures: [
          ...failures,
          ...passes.filter((pass) => pass.goalFactor !== null && ratio(pass) < pass.goalFactor).map((pass) => `${pass.label}: ${ratio(pass).toFixed(1)}× the chain's rate, below the goal of ${pass.goalFactor}×`),
          ...passes.filter((pass) => requestsPerSlot(pass) > GOAL_REQUESTS_PER_SLOT).map((pass) => `${pass.label}: ${formatRate(requestsPerSlot(pass))} DynamoDB requests a slot, above the goal of ${GOAL_REQUESTS_PER_SLOT}`),
          ...passes.filter((pass) => getBlockPerSlot(pass) > GOAL_GET_BLOCK_PER_SLOT).map((pass) => `${pass.label}: ${formatRate(getBlockPerSlot(pass))} getBlock a slot, above the goal of ${GOAL_GET_BLOCK_PER_SLOT}`),
        ],
        notes: [
          `The chain is the real SolanaRpcChain as the poller connects it (chainsOf('solana'), the stage's SOLANA naming the node): per scan, the confirmed slot and its block, getBlocks over the range, then each slot's block (transactionDetails \`accounts\`, 4 in flight), USDT read from each transaction's token balances; confirmDeposits reads the finalized and confirmed slots and each payment's transaction once its slot is final (${FINALITY_DEPTH} behind the head). The node (local/solana-node.ts) runs in a child process: its CPU (column "node CPU s") is not the scanner's.`,
          `Each scan reads at most ${MAX_BLOCKS_PER_SCAN} new slots (MAX_BLOCKS_PER_SCAN) plus a ${SCAN_OVERLAP_BLOCKS}-slot overlap, so a catch-up of ${PASSES[0]!.slots} slots is ${Math.ceil(PASSES[0]!.slots / MAX_BLOCKS_PER_SCAN)} polls back to back; slots/s is over the whole catch-up. Registered addresses are synthetic 32-byte owners (the Associated Token Account program makes an account for any); the ${hits} paid ones each get one transfer, with a Deposit awaiting payment; strangers are distinct synthetic owners, every transfer a transaction of its own (CreateIdempotent then TransferChecked from the customer wallet). Credited: payments in slots ${FINALITY_DEPTH} or more behind the head, the rest still confirming (credited in the next pass).`,
          `Deployed, the poller runs once a minute and scans while behind for 30 s of it (CATCH_UP_MS): it clears ${MAX_BLOCKS_PER_SCAN} slots a scan at the rate measured here for half of each minute, so its catch-up over the chain's 150 slots a minute is half the ratio measured. The second pass holds every answer ${PROVIDER_LATENCY_MS} ms: with 4 getBlock in flight (SolanaRpcChain's BLOCKS_IN_PARALLEL), ${MAX_BLOCKS_PER_SCAN + SCAN_OVERLAP_BLOCKS} blocks a scan take ${((MAX_BLOCKS_PER_SCAN + SCAN_OVERLAP_BLOCKS) / 4) * (PROVIDER_LATENCY_MS / 1000)} s, about ${(MAX_BLOCKS_PER_SCAN / (((MAX_BLOCKS_PER_SCAN + SCAN_OVERLAP_BLOCKS) / 4) * (PROVIDER_LATENCY_MS / 1000)) / SOLANA_SLOTS_PER_SECOND).toFixed(1)}× the chain at best, whatever the scanner's own cost: more in flight is the lever there, as the provider's rate limit allows.`,
          `The third pass pads every block the scanner reads to a mainnet block's size (${MAINNET_FILLER.voteSized} vote-sized System transfers and ${MAINNET_FILLER.tokenSized} copies of a 2.2 kB token transfer moving USDC, ~1.3 MB of JSON: the low end, mainnet's non-vote transactions being larger) by splicing the node's answer in the proxy (the node's process): the scanner parses every transaction and finds no more USDT. Its "scanner CPU s" ÷ the blocks read is what a deployed poller spends a slot.`,
        ],
      };
    } finally {
      await node.close();
      await scanner.stop();
    }
  },
};

interface MeasuredPass extends Pass {
  label: string;
  loaded: LoadedSlots;
  result: TimedScans;
  credited: number;
  rpc: Record<string, number>;
  nodeCpuMicros: number | null;
}

/** Counts by name, each divided by its pass's slots, a column per name. */
function perSlotTable(title: string, passes: { label: string; slots: number; counts: Record<string, number> }[], name: (key: string) => string = (key) => key): ResultTable {
  const keys = [...new Set(passes.flatMap((pass) => Object.keys(pass.counts)))].sort();
  return {
    title: `${title} (÷ the pass's slots)`,
    columns: ['pass', ...keys.map(name), 'total'],
    rows: passes.map((pass) => [
      pass.label,
      ...keys.map((key) => formatRate((pass.counts[key] ?? 0) / pass.slots)),
      formatRate(Object.values(pass.counts).reduce((sum, n) => sum + n, 0) / pass.slots),
    ]),
  };
}
