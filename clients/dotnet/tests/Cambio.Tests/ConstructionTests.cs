using System.Text.Json;

namespace Cambio.Tests;

/// <summary>
/// The key and secret go only to the base URL the integrator gave: no default host, nothing guessed,
/// plain http only on loopback, and the secret never shows in a string, a log or an error.
/// </summary>
public class ConstructionTests
{
    private const string Where = "`ApiUrl` output of your Cambio stack";
    private const string NpmStart = "`npm start` prints";

    private static ArgumentException Refusal(string? apiKey = "ck_live_k", string? apiSecret = "cs_live_s", string? baseUrl = "https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1") =>
        Assert.ThrowsAny<ArgumentException>(() => new CambioClient(new CambioClientOptions { ApiKey = apiKey, ApiSecret = apiSecret, BaseUrl = baseUrl }));

    [Fact]
    public void The_key_and_secret_are_required()
    {
        Assert.Throws<ArgumentNullException>(() => new CambioClient(null!));
        foreach (var (key, secret) in new[] { ((string?)null, (string?)"s"), ("k", null), ("", "s"), ("k", ""), ("k", "  ") })
        {
            Assert.Contains("needs ApiKey and ApiSecret", Refusal(apiKey: key, apiSecret: secret).Message);
        }
    }

    [Theory]
    [InlineData("\n")]
    [InlineData("\r\n")]
    [InlineData("\r\nX-Injected: 1")]
    [InlineData("\u0000")]
    [InlineData("\u007f")]
    [InlineData(" ")]
    [InlineData("\u00e9")]
    public void A_key_or_secret_with_a_line_break_or_another_control_character_is_refused_without_being_echoed(string bad)
    {
        const string secret = "cs_live_TOP_SECRET_1234567890";
        var onSecret = Refusal(apiSecret: secret + bad);
        Assert.Contains("ApiSecret must be printable ASCII", onSecret.Message);
        Assert.DoesNotContain(secret, onSecret.ToString());
        var onKey = Refusal(apiKey: "ck_live_" + secret + bad);
        Assert.Contains("ApiKey must be printable ASCII", onKey.Message);
        Assert.DoesNotContain(secret, onKey.ToString());
        Assert.Contains("must be printable ASCII", Refusal(apiSecret: bad + secret).Message);
    }

    [Fact]
    public void The_base_URL_is_required_and_the_error_says_where_it_comes_from()
    {
        foreach (var missing in new[] { null, "", "   " })
        {
            var message = Refusal(baseUrl: missing).Message;
            Assert.Contains("needs BaseUrl", message);
            Assert.Contains(Where, message);
            Assert.Contains(NpmStart, message);
        }
    }

    // Why a base URL is refused, as a pattern of its message.
    private const string NotHttp = "must be an http\\(s\\) URL.*" + Where;
    private const string ClearText = "plain http.*clear text.*" + Where + ".*loopback";
    private const string Credentials = "no credentials, query or fragment";

    [Theory]
    [InlineData("sandbox", NotHttp)]
    [InlineData("api.example.com/v1", NotHttp)]
    [InlineData("ftp://127.0.0.1/v1", NotHttp)]
    [InlineData("file:///tmp/v1", NotHttp)]
    [InlineData("javascript:alert(1)", NotHttp)]
    [InlineData("http://api.example.com/sandbox/v1", ClearText)]
    [InlineData("http://10.0.0.5:3000/v1", ClearText)]
    [InlineData("http://192.168.1.10:3000", ClearText)]
    [InlineData("http://localhost.example.com:3000", ClearText)]
    [InlineData("http://127.0.0.1.nip.io:3000", ClearText)]
    [InlineData("http://[::2]:3000", ClearText)]
    [InlineData("http://0.0.0.0:3000", ClearText)]
    [InlineData("https://user:pass@example.com/v1", Credentials)]
    [InlineData("https://example.com/v1?stage=sandbox", Credentials)]
    [InlineData("https://example.com/v1#x", Credentials)]
    public void An_unsafe_base_URL_is_refused_with_the_reason(string baseUrl, string reason)
    {
        var message = Refusal(baseUrl: baseUrl).Message;
        Assert.Matches(reason, message);
        Assert.DoesNotContain("pass@", message);
    }

    [Theory]
    [InlineData("https://api.example.com/sandbox/v1", "https://api.example.com/sandbox")]
    [InlineData("https://api.example.com/sandbox/v1/", "https://api.example.com/sandbox")]
    [InlineData("https://api.example.com/sandbox", "https://api.example.com/sandbox")]
    [InlineData("https://API.example.com:443/v1", "https://api.example.com")]
    [InlineData("http://127.0.0.1:3000/v1", "http://127.0.0.1:3000")]
    [InlineData("http://127.8.9.10:3000", "http://127.8.9.10:3000")]
    [InlineData("http://localhost:3000/v1", "http://localhost:3000")]
    [InlineData("http://[::1]:3000/v1", "http://[::1]:3000")]
    public void Https_anywhere_and_http_on_loopback_are_accepted_with_or_without_v1(string baseUrl, string expected)
    {
        // Shaped like the ApiUrl output too: https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1
        using var stage = new CambioClient(new CambioClientOptions { ApiKey = "k", ApiSecret = "s", BaseUrl = "https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1" });
        Assert.Equal("https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox", stage.BaseUrl);
        using var cambio = new CambioClient(new CambioClientOptions { ApiKey = "k", ApiSecret = "s", BaseUrl = baseUrl });
        Assert.Equal(expected, cambio.BaseUrl);
    }

    [Fact]
    public void Retries_and_timeout_are_checked()
    {
        Assert.ThrowsAny<ArgumentException>(() => new CambioClient(new CambioClientOptions { ApiKey = "k", ApiSecret = "s", BaseUrl = "https://example.com", MaxRetries = -1 }));
        Assert.ThrowsAny<ArgumentException>(() => new CambioClient(new CambioClientOptions { ApiKey = "k", ApiSecret = "s", BaseUrl = "https://example.com", Timeout = TimeSpan.Zero }));
        var defaults = new CambioClientOptions();
        Assert.Equal((2, TimeSpan.FromSeconds(30)), (defaults.MaxRetries, defaults.Timeout));
    }

    [Fact]
    public async Task The_secrets_never_appear_in_a_string_a_serialisation_or_an_error()
    {
        const string secret = "cs_live_TOP_SECRET_1234567890";
        var options = new CambioClientOptions { ApiKey = "ck_live_abcdefghijkl", ApiSecret = secret, BaseUrl = "http://127.0.0.1:1/v1" };
        using var cambio = new CambioClient(options);

        Assert.DoesNotContain(secret, cambio.ToString());
        Assert.DoesNotContain(secret, options.ToString());
        Assert.DoesNotContain(secret, JsonSerializer.Serialize(options));
        Assert.DoesNotContain("abcdefghijkl", cambio.ToString());
        Assert.Contains("[redacted]", cambio.ToString());

        await using var server = new ScriptedServer(Reply.Failure(401, "AUTH_FAILED", "Authentication failed: invalid API key or secret"));
        using var refused = new CambioClient(new CambioClientOptions { ApiKey = "ck_live_k", ApiSecret = secret, BaseUrl = server.Url });
        var auth = await Assert.ThrowsAsync<AuthenticationException>(() => refused.Company.GetAsync());
        Assert.DoesNotContain(secret, auth.ToString());

        using var unreachable = new CambioClient(new CambioClientOptions { ApiKey = "ck_live_k", ApiSecret = secret, BaseUrl = $"http://127.0.0.1:{ScriptedServer.ClosedPort()}", MaxRetries = 0 });
        var connection = await Assert.ThrowsAsync<ConnectionException>(() => unreachable.Company.GetAsync());
        Assert.DoesNotContain(secret, connection.ToString());

        var hook = new CreatedWebhook
        {
            Id = "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5", Url = "https://example.com/hooks", Events = ["*"], Description = null, Enabled = true,
            CreatedAt = DateTimeOffset.UnixEpoch, UpdatedAt = DateTimeOffset.UnixEpoch, Secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        };
        Assert.DoesNotContain("MfKQ9r8", hook.ToString());
        Assert.Contains("whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5", hook.ToString());

        var refusal = Assert.ThrowsAny<ArgumentException>(() => new CambioClient(new CambioClientOptions { ApiKey = "k", ApiSecret = secret, BaseUrl = "http://10.0.0.1" }));
        Assert.DoesNotContain(secret, refusal.ToString());
    }
}
