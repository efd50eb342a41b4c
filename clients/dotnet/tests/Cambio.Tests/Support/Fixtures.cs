namespace Cambio.Tests.Support;

/// <summary>Records as the API answers them, and the repository's files.</summary>
public static class Fixtures
{
    public static readonly object Withdrawal = new
    {
        id = "wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5",
        method = "usdt",
        reference = "payout-1",
        network = "tron",
        address = "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK",
        amount = "5.000000",
        fee = "1.000000",
        status = "pending",
        txHash = (string?)null,
        failureReason = (string?)null,
        createdAt = "2026-01-15T12:00:00.000Z",
        updatedAt = "2026-01-15T12:00:00.000Z",
        completedAt = (string?)null,
    };

    public static object Conversion(string id) => new
    {
        id,
        quoteId = "qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5",
        reference = (string?)null,
        sourceCurrency = "USDT",
        settlementCurrency = "BRL",
        sourceAmount = "10.000000",
        settlementAmount = "54.00",
        rate = "5.40000000",
        status = "completed",
        createdAt = "2026-01-15T12:00:00.000Z",
        completedAt = "2026-01-15T12:00:00.000Z",
    };

    public static readonly object Company = new
    {
        id = "cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5",
        name = "Acme",
        environment = "sandbox",
        status = "active",
        createdAt = "2026-01-15T12:00:00.000Z",
    };

    public static WithdrawalCreateOptions WithdrawalParams() => new()
    {
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
