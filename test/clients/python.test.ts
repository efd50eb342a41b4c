import { existsSync } from 'node:fs';
import { clientSuite } from '../../clients/conformance/bridge.ts';

/** clients/python's pytest suite (unit tests, signature vectors, the live scenario), each case reported here. */
await clientSuite({
  language: 'python',
  cwd: 'clients/python',
  command: ['/usr/bin/python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--junitxml', '{report}'],
  report: 'junit',
  env: { PYTHONDONTWRITEBYTECODE: '1' },
  missing: () => (existsSync('/usr/bin/python3') ? null : 'install python3-pytest (Debian) to run the Python client suite'),
});
