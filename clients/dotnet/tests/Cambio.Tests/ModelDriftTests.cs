namespace Cambio.Tests;

/// <summary>src/Cambio/Models.g.cs is what tools/Cambio.ModelGenerator makes from openapi.json: fails when openapi.json changed and the models were not regenerated.</summary>
public class ModelDriftTests
{
    [Fact]
    public void Committed_models_match_openapi_json()
    {
        var expected = Cambio.ModelGenerator.ModelGenerator.Generate(File.ReadAllText(Fixtures.OpenApiPath));
        var path = Path.Combine(Fixtures.ClientDir, "src", "Cambio", Cambio.ModelGenerator.ModelGenerator.FileName);
        const string fix = "openapi.json changed: run `dotnet run --project tools/Cambio.ModelGenerator` in clients/dotnet and commit src/Cambio/Models.g.cs";

        Assert.True(File.Exists(path), $"{fix}. Missing: {path}.");
        Assert.True(File.ReadAllText(path) == expected, $"{fix}. It differs.");
    }

    [Fact]
    public void Every_schema_of_openapi_json_has_a_type()
    {
        using var document = System.Text.Json.JsonDocument.Parse(File.ReadAllText(Fixtures.OpenApiPath));
        var schemas = document.RootElement.GetProperty("components").GetProperty("schemas").EnumerateObject().Select(s => s.Name).ToList();
        var types = typeof(CambioClient).Assembly.GetExportedTypes().Select(t => t.Name).ToHashSet();
        foreach (var name in new[] { "Company", "Balance", "Deposit", "Withdrawal", "Quote", "Conversion", "Webhook", "CreatedWebhook", "DeletedWebhook", "FieldError" })
        {
            Assert.Contains(name, schemas);
            Assert.Contains(name, types);
        }
        foreach (var name in new[] { "DepositCreateOptions", "WithdrawalCreateOptions", "ConversionQuoteOptions", "ConversionCreateOptions", "WebhookOptions" })
        {
            Assert.Contains(name, types);
        }
    }
}
