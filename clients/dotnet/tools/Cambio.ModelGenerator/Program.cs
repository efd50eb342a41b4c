// dotnet run --project tools/Cambio.ModelGenerator   (from clients/dotnet)
// Reads ../../openapi.json and rewrites src/Cambio/Models/*.g.cs; `--check` only reports drift.
using System;
using System.IO;
using System.Linq;
using Cambio.ModelGenerator;

var clientDir = FindClientDir(AppContext.BaseDirectory) ?? FindClientDir(Directory.GetCurrentDirectory())
    ?? throw new InvalidOperationException("Run this from clients/dotnet: could not find clients/dotnet/src/Cambio");
var openApi = Path.GetFullPath(Path.Combine(clientDir, "..", "..", "openapi.json"));
var modelsDir = Path.Combine(clientDir, "src", "Cambio", "Models");
var files = ModelGenerator.Generate(File.ReadAllText(openApi));
var check = args.Contains("--check");
var drift = 0;

Directory.CreateDirectory(modelsDir);
foreach (var stale in Directory.GetFiles(modelsDir, "*.g.cs").Where(path => !files.ContainsKey(Path.GetFileName(path))))
{
    drift++;
    Console.WriteLine($"{(check ? "stale" : "removed")} {Path.GetRelativePath(clientDir, stale)}");
    if (!check) File.Delete(stale);
}
foreach (var (name, content) in files)
{
    var path = Path.Combine(modelsDir, name);
    if (File.Exists(path) && File.ReadAllText(path) == content) continue;
    drift++;
    Console.WriteLine($"{(check ? "differs" : "wrote")} {Path.GetRelativePath(clientDir, path)}");
    if (!check) File.WriteAllText(path, content);
}
Console.WriteLine($"{files.Count} model files from {Path.GetRelativePath(clientDir, openApi)}, {drift} {(check ? "out of date" : "changed")}");
return check && drift > 0 ? 1 : 0;

static string? FindClientDir(string start)
{
    for (var dir = new DirectoryInfo(start); dir is not null; dir = dir.Parent)
    {
        if (Directory.Exists(Path.Combine(dir.FullName, "src", "Cambio")) && File.Exists(Path.Combine(dir.FullName, "nuget.config"))) return dir.FullName;
    }
    return null;
}
