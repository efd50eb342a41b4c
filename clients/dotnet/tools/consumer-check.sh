#!/usr/bin/env bash
# Installs the packed Cambio from the folder given, as an application does, into a fresh console app
# built for net8.0 and for net10.0, and runs both: each gets the company's balance from
# CAMBIO_API_URL with CAMBIO_API_KEY / CAMBIO_API_SECRET and prints it ("… available …").
#   bash tools/consumer-check.sh <absolute out dir>   (after tools/pack.sh; npm run clients:pack calls it)
# Where only a newer runtime than .NET 8 is installed, the net8.0 app runs on it (DOTNET_ROLL_FORWARD=Major).
set -euo pipefail
out="${1:?usage: bash tools/consumer-check.sh <absolute out dir>}"
: "${CAMBIO_API_URL:?}" "${CAMBIO_API_KEY:?}" "${CAMBIO_API_SECRET:?}"
cd "$(dirname "$0")/.."
version="${CAMBIO_VERSION:-$(sed -n 's:.*<Version>\(.*\)</Version>.*:\1:p' src/Cambio/Cambio.csproj)}"
[ -f "$out/Cambio.$version.nupkg" ] || { echo "consumer-check: no Cambio.$version.nupkg in $out (run tools/pack.sh first)" >&2; exit 1; }

export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 MSBUILDDISABLENODEREUSE=1
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT

# A package folder of its own, so Cambio comes from $out and never from an earlier install of the same
# version; the user's folder is read for the rest (the net8.0 reference pack) unless it holds a Cambio $version.
export NUGET_PACKAGES="$app/packages"
fallback=""
if [ -d "$HOME/.nuget/packages" ] && [ ! -d "$HOME/.nuget/packages/cambio/$version" ]; then
  fallback="<fallbackPackageFolders><add key=\"user\" value=\"$HOME/.nuget/packages\" /></fallbackPackageFolders>"
fi
cat > "$app/nuget.config" <<XML
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="cambio" value="$out" />
    <add key="offline" value="/opt/nuget/packages" />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" />
  </packageSources>
  $fallback
</configuration>
XML
cat > "$app/Consumer.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFrameworks>net8.0;net10.0</TargetFrameworks>
    <Nullable>enable</Nullable>
    <ImplicitUsings>enable</ImplicitUsings>
    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>
    <UseSharedCompilation>false</UseSharedCompilation>
  </PropertyGroup>
  <ItemGroup>
    <PackageReference Include="Cambio" Version="[$version]" />
  </ItemGroup>
</Project>
XML
cat > "$app/Program.cs" <<'CS'
using System.Reflection;
using System.Runtime.Versioning;
using Cambio;

using var cambio = new CambioClient(new CambioClientOptions
{
    ApiKey = Environment.GetEnvironmentVariable("CAMBIO_API_KEY"),
    ApiSecret = Environment.GetEnvironmentVariable("CAMBIO_API_SECRET"),
    BaseUrl = Environment.GetEnvironmentVariable("CAMBIO_API_URL"),
});
Balance balance = await cambio.Company.GetBalanceAsync();
var library = typeof(CambioClient).Assembly.GetCustomAttribute<TargetFrameworkAttribute>()?.FrameworkName;
var amounts = string.Join(", ", balance.Balances.Select(b => $"{b.Available} {b.Currency}"));
Console.WriteLine($"Cambio {CambioClient.Version} ({library} build) on .NET {Environment.Version}: {amounts} available");
CS

dotnet build "$app/Consumer.csproj" -c Release -v:q -nologo >"$app/build.log" 2>&1 || { cat "$app/build.log" >&2; exit 1; }
for framework in net8.0 net10.0; do
  if [ "$framework" = net8.0 ] && ! dotnet --list-runtimes | grep -q '^Microsoft.NETCore.App 8\.'; then
    echo "consumer-check: net8.0 app, on the newest runtime (DOTNET_ROLL_FORWARD=Major: no .NET 8 runtime here)"
    DOTNET_ROLL_FORWARD=Major dotnet "$app/bin/Release/$framework/Consumer.dll"
  else
    echo "consumer-check: $framework app"
    dotnet "$app/bin/Release/$framework/Consumer.dll"
  fi
done
