import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileContracts, compilerFor, CONTRACTS_MODULE_FILE, contractsModuleSource, compileUsdtContracts, USDT_CONTRACTS_MODULE_FILE, usdtContractsModuleSource } from '../../scripts/compile-contracts.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const regenerate = '`npm run contracts:compile` and commit the result, never edit it by hand';

describe('the EVM contracts modules', () => {
  it('the forwarder module is exactly what contracts/*.sol compile to, so the bytecode deployed is the source reviewed', () => {
    const committed = readFileSync(`${ROOT}${CONTRACTS_MODULE_FILE}`, 'utf8');

    const compiled = contractsModuleSource(compileContracts());

    expect(committed, `${CONTRACTS_MODULE_FILE} is generated from contracts/*.sol: run ${regenerate}`).toBe(compiled);
  });

  it('the USDT module is exactly what contracts/usdt/*.sol compile to, each with the compiler its pragma names (the old ones for the old tokens)', () => {
    const committed = readFileSync(`${ROOT}${USDT_CONTRACTS_MODULE_FILE}`, 'utf8');

    const tokens = compileUsdtContracts();

    expect(committed, `${USDT_CONTRACTS_MODULE_FILE} is generated from contracts/usdt/*.sol: run ${regenerate}`).toBe(usdtContractsModuleSource(tokens));
    expect(Object.fromEntries(Object.entries(tokens).map(([name, token]) => [name, token.solcVersion.split('+')[0]]))).toEqual({
      Bep20Usdt: '0.5.16',
      BlockedListUsdt: expect.stringMatching(/^0\.8\./),
      TetherUsdt: '0.4.18',
      UpgradedUsdt: '0.4.18',
    });
  }, 120_000);

  it("picks each source's compiler from its pragma, and refuses a pragma no pinned compiler or two of them admit", () => {
    expect(compilerFor('a.sol', 'pragma solidity ^0.4.17;')).toBe('solc-0.4.18');
    expect(compilerFor('a.sol', '// x\npragma solidity ^0.5.16;')).toBe('solc-0.5.16');
    expect(compilerFor('a.sol', 'pragma solidity ^0.8.24;')).toBe('solc');
    expect(() => compilerFor('a.sol', 'pragma solidity ^0.6.0;')).toThrow(/admits none/);
    expect(() => compilerFor('a.sol', 'pragma solidity ^0.4.19;')).toThrow(/admits none/);
    expect(() => compilerFor('a.sol', 'contract A {}')).toThrow(/no pragma/);
  });
});
