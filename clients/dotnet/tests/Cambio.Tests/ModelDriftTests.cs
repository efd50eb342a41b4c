namespace Cambio.Tests;

/// <summary>src/Cambio/Models is what tools/Cambio.ModelGenerator makes from openapi.json: fails when openapi.json changed and the models were not regenerated.</summary>
public class ModelDriftTests
{
    [Fact]
    public void Committed_models_match_openapi_json()
    {
        var expected = Cambio.ModelGenerator.ModelGenerator.Generate(File.ReadAllText(Fixtures.OpenApiPath));
        var modelsDir = Path.Combine(Fixtures.ClientDir, "src", "Cambio", "Models");
        var committed = Directory.GetFiles(modelsDir, "*.g.cs").ToDictionary(path => Path.GetFileName(path), File.ReadAllText);
        const string fix = "openapi.json changed: run `dotnet run --project tools/Cambio.ModelGenerator` in clients/dotnet and commit src/Cambio/Models";

        Assert.True(expected.Keys.Order().SequenceEqual(committed.Keys.Order()),
            $"{fix}. Missing: {string.Join(", ", expected.Keys.Except(committed.Keys))}; stale: {string.Join(", ", committed.Keys.Except(expected.Keys))}");
        foreach (var (name, content) in expected)
        {
            Assert.True(committed[name] == content, $"{fix}. {name} differs.");
        }
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
