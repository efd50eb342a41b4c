import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileContracts, CONTRACTS_MODULE_FILE, contractsModuleSource } from '../../scripts/compile-contracts.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('the EVM contracts module', () => {
  it('is exactly what contracts/*.sol compile to, so the bytecode deployed is the source reviewed', () => {
    const committed = readFileSync(`${ROOT}${CONTRACTS_MODULE_FILE}`, 'utf8');

    const compiled = contractsModuleSource(compileContracts());

    expect(committed, `${CONTRACTS_MODULE_FILE} is generated from contracts/*.sol: run \`npm run contracts:compile\` and commit the result, never edit it by hand`).toBe(compiled);
  });
});
