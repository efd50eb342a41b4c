using System.Diagnostics;
using System.IO.Compression;
using System.Xml.Linq;

namespace Cambio.Tests;

/// <summary>
/// The package as the README installs it: <c>dotnet pack</c> (every target, the licence, the metadata), then
/// an app of its own that takes <c>Cambio</c> from that local folder alone (no project reference, no other
/// source) and uses it. tools/consumer-check.sh does the same for net8.0 and net10.0 apps against a live API.
/// </summary>
[Collection(PackagingCollection.Name)]
public class PackagingTests
{
    private static readonly string Dotnet = new[] { "/usr/bin/dotnet", "/usr/share/dotnet/dotnet" }.FirstOrDefault(File.Exists) ?? "dotnet";

    [Fact]
    public void Packs_every_target_and_an_app_installs_it_from_a_local_folder_and_verifies_a_delivery()
    {
        var work = Directory.CreateTempSubdirectory("cambio-pack-").FullName;
        try
        {
            // A copy of what the pack reads, so its restore and Release build never touch the suite's own obj/ and bin/.
            var client = Path.Combine(work, "client");
            CopyTree(Path.Combine(Fixtures.ClientDir, "src", "Cambio"), Path.Combine(client, "src", "Cambio"));
            foreach (var file in new[] { "README.md", "LICENSE", "nuget.config", "Directory.Build.props" })
            {
                File.Copy(Path.Combine(Fixtures.ClientDir, file), Path.Combine(client, file));
            }
            var feed = Path.Combine(work, "feed");
            // The library's dependencies come from the user's package folder, as in any build.
            Run(client, packages: null, "pack", "src/Cambio", "-c", "Release", "-o", feed);

            var nupkg = Path.Combine(feed, $"Cambio.{CambioClient.Version}.nupkg");
            Assert.True(File.Exists(nupkg), $"no {Path.GetFileName(nupkg)} in {string.Join(", ", Directory.GetFiles(feed).Select(Path.GetFileName))}");
            using (var package = ZipFile.OpenRead(nupkg))
            {
                var entries = package.Entries.Select(entry => entry.FullName).ToHashSet();
                foreach (var framework in new[] { "netstandard2.0", "net8.0", "net10.0" })
                {
                    Assert.Contains($"lib/{framework}/Cambio.dll", entries);
                    Assert.Contains($"lib/{framework}/Cambio.xml", entries);
                }
                Assert.Contains("README.md", entries);
                Assert.Contains("LICENSE", entries);
                using var nuspec = package.Entries.Single(entry => entry.FullName.EndsWith(".nuspec")).Open();
                var metadata = XDocument.Load(nuspec).Descendants().Single(element => element.Name.LocalName == "metadata");
                string? Field(string name) => metadata.Elements().SingleOrDefault(element => element.Name.LocalName == name)?.Value;
                Assert.Equal("MIT", Field("license"));
                Assert.Equal("Cambio", Field("authors"));
                Assert.StartsWith("https://", Field("projectUrl"));
                Assert.StartsWith("https://", metadata.Elements().Single(element => element.Name.LocalName == "repository").Attribute("url")?.Value);
                // Nothing beyond the framework on .NET 8 and later; netstandard2.0 takes what net8.0 has in the box.
                var groups = metadata.Descendants().Where(element => element.Name.LocalName == "group")
                    .ToDictionary(group => group.Attribute("targetFramework")!.Value, group => group.Elements().Select(dependency => dependency.Attribute("id")!.Value).Order().ToList());
                Assert.Empty(groups["net8.0"]);
                Assert.Empty(groups["net10.0"]);
                Assert.Equal(["Microsoft.Bcl.AsyncInterfaces", "Microsoft.Bcl.TimeProvider", "System.Text.Json"], groups[".NETStandard2.0"]);
            }
            Assert.True(File.Exists(Path.Combine(feed, $"Cambio.{CambioClient.Version}.snupkg")), "no symbols package beside the package");

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

            var output = Run(app, packages: Path.Combine(work, "packages"), "run", "--", body, signed["webhook-id"], signed["webhook-timestamp"], signed["webhook-signature"], Signer.Secret)
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

    /// <summary>Runs dotnet; with <paramref name="packages"/>, restores into that folder alone (nothing cached elsewhere is used or left).</summary>
    private static string Run(string directory, string? packages, params string[] arguments)
    {
        var start = new ProcessStartInfo(Dotnet) { WorkingDirectory = directory, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments) start.ArgumentList.Add(argument);
        if (packages is not null) start.Environment["NUGET_PACKAGES"] = packages;
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
