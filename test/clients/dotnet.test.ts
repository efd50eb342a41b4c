import { existsSync } from 'node:fs';
import { clientSuite } from '../../clients/conformance/bridge.ts';

// The .NET client's xunit suite (clients/dotnet), restored from the offline NuGet folder its
// nuget.config names, run against the live conformance runtime; TRX report read by the bridge.
const DOTNET_PATHS = ['/usr/bin/dotnet', '/usr/share/dotnet/dotnet'];
const dotnet = DOTNET_PATHS.find((path) => existsSync(path));

await clientSuite({
  language: 'dotnet',
  command: [dotnet ?? 'dotnet', 'test', 'tests/Cambio.Tests/Cambio.Tests.csproj', '--logger', 'trx', '--results-directory', '{report}'],
  report: 'trx',
  env: {
    DOTNET_CLI_TELEMETRY_OPTOUT: '1',
    DOTNET_NOLOGO: '1',
    DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1',
    // No MSBuild worker nodes left running after the build.
    MSBUILDDISABLENODEREUSE: '1',
  },
  needs: [
    { path: DOTNET_PATHS, install: 'the .NET 10 SDK (Debian: dotnet-sdk-10.0)' },
    { path: '/opt/nuget/packages/xunit', install: 'the offline NuGet folder /opt/nuget/packages with xunit and Microsoft.NET.Test.Sdk (clients/dotnet/README.md)' },
  ],
  timeoutMs: 400_000,
});
