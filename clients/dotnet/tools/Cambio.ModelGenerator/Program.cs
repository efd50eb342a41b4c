// dotnet run --project tools/Cambio.ModelGenerator   (from clients/dotnet)
// Reads ../../openapi.json and rewrites src/Cambio/Models.g.cs; `--check` only reports drift.
using System;
using System.IO;
using System.Linq;
using Cambio.ModelGenerator;

var clientDir = FindClientDir(AppContext.BaseDirectory) ?? FindClientDir(Directory.GetCurrentDirectory())
    ?? throw new InvalidOperationException("Run this from clients/dotnet: could not find clients/dotnet/src/Cambio");
var openApi = Path.GetFullPath(Path.Combine(clientDir, "..", "..", "openapi.json"));
var path = Path.Combine(clientDir, "src", "Cambio", ModelGenerator.FileName);
var relative = Path.GetRelativePath(clientDir, path);
var content = ModelGenerator.Generate(File.ReadAllText(openApi));
var check = args.Contains("--check");
var drift = !File.Exists(path) || File.ReadAllText(path) != content;

if (drift && !check) File.WriteAllText(path, content);
Console.WriteLine($"{relative} from {Path.GetRelativePath(clientDir, openApi)}: {(drift ? check ? "out of date" : "rewritten" : "up to date")}");
return check && drift ? 1 : 0;

static string? FindClientDir(string start)
{
    for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
    {
        if (Directory.Exists(Path.Combine(dir.FullName, "src", "Cambio")) && File.Exists(Path.Combine(dir.FullName, "nuget.config"))) return dir.FullName;
    }
    return null;
}
