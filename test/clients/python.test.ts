import { clientSuite } from '../../clients/conformance/bridge.ts';

/** clients/python's pytest suite (unit tests, signature vectors, the live scenario), each case reported here. */
await clientSuite({
  language: 'python',
  command: ['/usr/bin/python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--junitxml', '{report}'],
  env: { PYTHONDONTWRITEBYTECODE: '1' },
  needs: [
    { path: '/usr/bin/python3', install: 'Python 3 (Debian: python3)' },
    { path: '/usr/lib/python3/dist-packages/pytest', install: 'pytest, pip, setuptools and wheel (Debian: python3-pytest python3-pip python3-setuptools python3-wheel)' },
  ],
});
