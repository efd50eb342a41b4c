import { existsSync } from 'node:fs';
import { clientSuite } from '../../clients/conformance/bridge.ts';

/** clients/python's pytest suite (unit tests, signature vectors, the live scenario), each case reported here. */
await clientSuite({
  language: 'python',
  cwd: 'clients/python',
  command: ['/usr/bin/python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--junitxml', '{report}'],
  report: 'junit',
  env: { PYTHONDONTWRITEBYTECODE: '1' },
  missing: () =>
    existsSync('/usr/bin/python3') && existsSync('/usr/lib/python3/dist-packages/pytest')
      ? null
      : 'install the Debian packages python3-pytest, python3-pip, python3-setuptools and python3-wheel to run the Python client suite',
});
