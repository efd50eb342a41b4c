import { describe, expect, it } from 'vitest';
import { junitCases } from '../../clients/conformance/bridge.ts';

/** The clients' JUnit reports as the bridge reads them into vitest cases (clients/conformance/bridge.ts). */
describe('junitCases', () => {
  it('reads a PHPUnit case that raised a warning as failed, with its message, beside one that passed', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="cambio-php" tests="2" warnings="1">
    <testcase name="testCreatesDeposit" class="Cambio\\Tests\\DepositsTest" classname="Cambio.Tests.DepositsTest"/>
    <testcase name="testListsWithdrawals" class="Cambio\\Tests\\WithdrawalsTest" classname="Cambio.Tests.WithdrawalsTest">
      <warning type="PHPUnit\\Framework\\Warning">Cambio\\Tests\\WithdrawalsTest::testListsWithdrawals
Undefined array key &quot;cursor&quot;</warning>
    </testcase>
  </testsuite>
</testsuites>`;
    expect(junitCases(xml)).toEqual([
      { name: 'Cambio.Tests.DepositsTest › testCreatesDeposit', failure: null, skipped: false },
      {
        name: 'Cambio.Tests.WithdrawalsTest › testListsWithdrawals',
        failure: expect.stringContaining('Undefined array key "cursor"'),
        skipped: false,
      },
    ]);
  });

  it('reads an empty <warning/> as failed too', () => {
    expect(junitCases('<testcase name="t"><warning/></testcase>')).toEqual([{ name: 't', failure: 'warning', skipped: false }]);
  });
});
