using System.Text.Json;
using System.Text.Json.Nodes;

namespace Cambio.Tests.Support;

/// <summary>Records as the API answers them (Support/records.json), and the repository's files.</summary>
public static class Fixtures
{
    private static readonly JsonElement Records =
        JsonDocument.Parse(File.ReadAllText(Path.Combine(ClientDir, "tests", "Cambio.Tests", "Support", "records.json"))).RootElement;

    public static readonly JsonElement Withdrawal = Records.GetProperty("withdrawal");

    public static readonly JsonElement Company = Records.GetProperty("company");

    /// <summary>A conversion record with this id (a new node per call: tests may run in parallel).</summary>
    public static JsonNode Conversion(string id)
    {
        var conversion = JsonNode.Parse(Records.GetProperty("conversion").GetRawText())!;
        conversion["id"] = id;
        return conversion;
    }

    public static WithdrawalCreateOptions WithdrawalParams() => new()
    {
        Network = "tron",
        Address = "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK",
        Amount = "5",
        Reference = "payout-1",
    };

    /// <summary>A client against a scripted server, with fast retries.</summary>
    public static CambioClient Client(string baseUrl, int maxRetries = 2, TimeSpan? timeout = null) => new(new CambioClientOptions
    {
        ApiKey = "ck_test_key",
        ApiSecret = "cs_test_SECRET_value",
        BaseUrl = baseUrl,
        MaxRetries = maxRetries,
        Timeout = timeout ?? TimeSpan.FromSeconds(10),
        InitialRetryDelay = TimeSpan.FromMilliseconds(5),
        MaxRetryDelay = TimeSpan.FromMilliseconds(20),
    });

    /// <summary>clients/dotnet.</summary>
    public static string ClientDir
    {
        get
        {
            for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            {
                if (File.Exists(Path.Combine(dir.FullName, "nuget.config")) && Directory.Exists(Path.Combine(dir.FullName, "src", "Cambio"))) return dir.FullName;
            }
            throw new InvalidOperationException("clients/dotnet not found above " + AppContext.BaseDirectory);
        }
    }

    public static string OpenApiPath => Path.GetFullPath(Path.Combine(ClientDir, "..", "..", "openapi.json"));

    public static string VectorsPath =>
        Environment.GetEnvironmentVariable("CAMBIO_CONFORMANCE_VECTORS") is { Length: > 0 } path
            ? path
            : Path.GetFullPath(Path.Combine(ClientDir, "..", "conformance", "vectors.json"));
}
