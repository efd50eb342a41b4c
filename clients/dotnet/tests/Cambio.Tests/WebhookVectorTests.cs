using System.Text.Json;

namespace Cambio.Tests;

/// <summary>clients/conformance/vectors.json: deliveries signed by the npm standardwebhooks library; verify with the clock at each vector's now.</summary>
public class WebhookVectorTests
{
    private static JsonElement Vectors() => JsonDocument.Parse(File.ReadAllText(Fixtures.VectorsPath)).RootElement;

    public static IEnumerable<object[]> Names() => Vectors().GetProperty("vectors").EnumerateArray().Select(v => new object[] { v.GetProperty("name").GetString()! });

    [Theory]
    [MemberData(nameof(Names))]
    public void Vector(string name)
    {
        var root = Vectors();
        var vector = root.GetProperty("vectors").EnumerateArray().Single(v => v.GetProperty("name").GetString() == name);
        var headers = vector.GetProperty("headers").EnumerateObject().ToDictionary(h => h.Name, h => h.Value.GetString()!);
        var body = vector.GetProperty("body").GetString()!;
        var secret = vector.GetProperty("secret").GetString()!;
        var options = new WebhookVerifyOptions
        {
            Now = DateTimeOffset.FromUnixTimeSeconds(vector.GetProperty("now").GetInt64()),
            Tolerance = TimeSpan.FromSeconds(root.GetProperty("toleranceSeconds").GetInt32()),
        };
        using var cambio = new CambioClient(new CambioClientOptions { ApiKey = "k", ApiSecret = "s", BaseUrl = "https://example.com" });

        var expect = vector.GetProperty("expect").GetString();
        if (expect == "rejected")
        {
            var error = Assert.Throws<WebhookVerificationException>(() => cambio.Webhooks.Verify(body, headers, secret, options));
            Assert.Equal("WEBHOOK_VERIFICATION_FAILED", error.Code);
            Assert.Throws<WebhookVerificationException>(() => cambio.Webhooks.Verify(System.Text.Encoding.UTF8.GetBytes(body), headers, secret, options));
            Assert.Throws<WebhookVerificationException>(() => cambio.Webhooks.VerifySignature(body, headers, secret, options));
            Assert.Contains(vector.GetProperty("messageIncludes").GetString()!, error.Message, StringComparison.OrdinalIgnoreCase);
            return;
        }
        cambio.Webhooks.VerifySignature(body, headers, secret, options);
        var fromString = cambio.Webhooks.Verify(body, headers, secret, options);
        var fromBytes = cambio.Webhooks.Verify(System.Text.Encoding.UTF8.GetBytes(body), headers, secret, options);
        Assert.Equal(fromString.Type, fromBytes.Type);
        Assert.Equal(expect == "event", fromString.IsCambioEvent);
        if (expect == "event")
        {
            Assert.Equal(vector.GetProperty("eventType").GetString(), fromString.Type);
            Assert.Equal(JsonDocument.Parse(body).RootElement.GetProperty("id").GetString(), fromString.Id);
            Assert.Equal(JsonDocument.Parse(body).RootElement.GetProperty("data").GetRawText(), fromString.Data.GetRawText());
        }
        else
        {
            Assert.Null(fromString.Type);
            Assert.Equal(headers.First(h => h.Key.Equals("webhook-id", StringComparison.OrdinalIgnoreCase)).Value, fromString.Id);
        }
    }

    [Fact]
    public void Every_vector_is_run()
    {
        Assert.True(Names().Count() >= 13, $"only {Names().Count()} vectors in {Fixtures.VectorsPath}");
    }
}
