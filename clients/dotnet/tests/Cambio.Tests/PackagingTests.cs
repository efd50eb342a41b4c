using System.Diagnostics;
using System.IO.Compression;
using System.Xml.Linq;

namespace Cambio.Tests;

/// <summary>
/// The package as the README installs it: <c>dotnet pack</c> offline, then an app of its own that takes
/// <c>Cambio</c> from that local folder alone (no project reference, no other source) and uses it.
/// </summary>
[Collection(PackagingCollection.Name)]
public class PackagingTests
{
    private static readonly string Dotnet = new[] { "/usr/bin/dotnet", "/usr/share/dotnet/dotnet" }.FirstOrDefault(File.Exists) ?? "dotnet";

    [Fact]
    public void Packs_offline_and_an_app_installs_it_from_a_local_folder_and_verifies_a_delivery()
    {
        var work = Directory.CreateTempSubdirectory("cambio-pack-").FullName;
        try
        {
            // A copy of what the pack reads, so its restore and Release build never touch the suite's own obj/ and bin/.
            var client = Path.Combine(work, "client");
            CopyTree(Path.Combine(Fixtures.ClientDir, "src", "Cambio"), Path.Combine(client, "src", "Cambio"));
            foreach (var file in new[] { "README.md", "nuget.config", "Directory.Build.props" })
            {
                File.Copy(Path.Combine(Fixtures.ClientDir, file), Path.Combine(client, file));
            }
            var feed = Path.Combine(work, "feed");
            Run(client, "pack", "src/Cambio", "-c", "Release", "-o", feed);

            var nupkg = Path.Combine(feed, $"Cambio.{CambioClient.Version}.nupkg");
            Assert.True(File.Exists(nupkg), $"no {Path.GetFileName(nupkg)} in {string.Join(", ", Directory.GetFiles(feed).Select(Path.GetFileName))}");
            using (var package = ZipFile.OpenRead(nupkg))
            {
                var entries = package.Entries.Select(entry => entry.FullName).ToHashSet();
                foreach (var expected in new[] { "lib/net10.0/Cambio.dll", "lib/net10.0/Cambio.xml", "README.md" })
                {
                    Assert.Contains(expected, entries);
                }
                using var nuspec = package.Entries.Single(entry => entry.FullName.EndsWith(".nuspec")).Open();
                var dependencies = XDocument.Load(nuspec).Descendants().Where(element => element.Name.LocalName == "dependency").Select(element => element.Attribute("id")?.Value);
                Assert.Empty(dependencies);
            }

            var app = Path.Combine(work, "app");
            Directory.CreateDirectory(app);
            File.WriteAllText(Path.Combine(app, "nuget.config"), $"""
                <?xml version="1.0" encoding="utf-8"?>
                <configuration>
                  <packageSources>
                    <clear />
                    <add key="cambio" value="{feed}" />
                  </packageSources>
                </configuration>
                """);
            File.WriteAllText(Path.Combine(app, "App.csproj"), $"""
                <Project Sdk="Microsoft.NET.Sdk">
                  <PropertyGroup>
                    <OutputType>Exe</OutputType>
                    <TargetFramework>net10.0</TargetFramework>
                    <Nullable>enable</Nullable>
                    <UseSharedCompilation>false</UseSharedCompilation>
                  </PropertyGroup>
                  <ItemGroup>
                    <PackageReference Include="Cambio" Version="{CambioClient.Version}" />
                  </ItemGroup>
                </Project>
                """);
            File.WriteAllText(Path.Combine(app, "Program.cs"), """
                using System;
                using System.Collections.Generic;
                using System.IO;
                using Cambio;

                var body = File.ReadAllText(args[0]);
                var headers = new Dictionary<string, string> { ["webhook-id"] = args[1], ["webhook-timestamp"] = args[2], ["webhook-signature"] = args[3] };
                var delivery = WebhookSignature.Verify(body, headers, args[4]);
                Console.WriteLine($"{CambioClient.UserAgent}|{delivery.Type}|{delivery.DataAs<Deposit>().CreditedAmount}|{typeof(CambioClient).Assembly.Location}");
                """);
            var body = Path.Combine(work, "delivery.json");
            File.WriteAllText(body, Signer.DepositCompleted);
            var signed = Signer.Headers(Signer.DepositCompleted, DateTimeOffset.UtcNow);

            var output = Run(app, "run", "--", body, signed["webhook-id"], signed["webhook-timestamp"], signed["webhook-signature"], Signer.Secret)
                .Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Last().Split('|');

            Assert.Equal(CambioClient.UserAgent, output[0]);
            Assert.Equal("deposit.completed", output[1]);
            Assert.Equal("25.000000", output[2]);
            // The Cambio the app ran is the package restored out of the local folder, not this repository's build.
            using var assets = System.Text.Json.JsonDocument.Parse(File.ReadAllText(Path.Combine(app, "obj", "project.assets.json")));
            var library = assets.RootElement.GetProperty("libraries").GetProperty($"Cambio/{CambioClient.Version}");
            Assert.Equal("package", library.GetProperty("type").GetString());
            var restored = Path.Combine(work, "packages", "cambio", CambioClient.Version, "lib", "net10.0", "Cambio.dll");
            Assert.Equal(File.ReadAllBytes(restored), File.ReadAllBytes(output[3]));
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    private static string Run(string directory, params string[] arguments)
    {
        var start = new ProcessStartInfo(Dotnet) { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        // Its own package folder: what the app restores comes from the feed, and nothing is left in ~/.nuget.
        start.Environment["NUGET_PACKAGES"] = Path.Combine(Path.GetDirectoryName(directory)!, "packages");
        foreach (var (name, value) in new Dictionary<string, string> { ["DOTNET_NOLOGO"] = "1", ["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1", ["MSBUILDDISABLENODEREUSE"] = "1" })
        {
            start.Environment[name] = value;
        }
        using var process = Process.Start(start)!;
        var stderr = process.StandardError.ReadToEndAsync();
        var stdout = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        Assert.True(process.ExitCode == 0, $"dotnet {string.Join(' ', arguments)} exited {process.ExitCode}:\n{stdout}\n{stderr.Result}");
        return stdout;
    }

    private static void CopyTree(string from, string to)
    {
        foreach (var file in Directory.EnumerateFiles(from, "*", SearchOption.AllDirectories))
        {
            var relative = Path.GetRelativePath(from, file);
            if (relative.Split(Path.DirectorySeparatorChar)[0] is "bin" or "obj") continue;
            Directory.CreateDirectory(Path.GetDirectoryName(Path.Combine(to, relative))!);
            File.Copy(file, Path.Combine(to, relative));
        }
    }
}

/// <summary>
/// Packing and building an app take both cores for seconds; beside them, the retry tests' 200 ms
/// timeouts ran out before the scripted server had read a retry. xunit runs a collection that
/// disables parallelization alone, after the others.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public class PackagingCollection
{
    public const string Name = "Packaging, alone";
}
