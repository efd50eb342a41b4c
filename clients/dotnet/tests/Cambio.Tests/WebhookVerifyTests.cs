using System.Text;
using System.Text.Json;

namespace Cambio.Tests;

/// <summary>Verify's containers, clock and messages beyond the shared vectors.</summary>
public class WebhookVerifyTests
{
    private static readonly DateTimeOffset Now = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private static readonly WebhookVerifyOptions AtNow = new() { Now = Now };

    [Fact]
    public void Verifies_bytes_spans_strings_with_dictionaries_header_pairs_and_lookups_and_reads_the_data()
    {
        var body = Signer.DepositCompleted;
        var headers = Signer.Headers(body, Now);
        var bytes = Encoding.UTF8.GetBytes(body);
        var upper = headers.ToDictionary(h => h.Key.ToUpperInvariant(), h => h.Value);
        var pairs = headers.Select(h => new KeyValuePair<string, string[]>(h.Key, new[] { h.Value })).ToList();
        using var message = new HttpRequestMessage();
        foreach (var (name, value) in headers) message.Headers.TryAddWithoutValidation(name, value);

        var events = new[]
        {
            WebhookSignature.Verify(body, upper, Signer.Secret, AtNow),
            WebhookSignature.Verify(bytes, headers, Signer.Secret, AtNow),
            WebhookSignature.Verify(bytes.AsSpan(), headers, Signer.Secret, AtNow),
            WebhookSignature.Verify(body, pairs, Signer.Secret, AtNow),
            WebhookSignature.Verify(bytes, message.Headers, Signer.Secret, AtNow),
            WebhookSignature.Verify(body, name => upper.GetValueOrDefault(name.ToUpperInvariant()), Signer.Secret, AtNow),
        };

        foreach (var e in events)
        {
            Assert.Equal(("evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X", WebhookEventTypes.DepositCompleted), (e.Id, e.Type));
            Assert.Equal(new DateTimeOffset(2026, 1, 1, 0, 0, 0, TimeSpan.Zero), e.CreatedAt);
            var deposit = e.DataAs<Deposit>();
            Assert.Equal(("dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J", "25.000000"), (deposit.Id, deposit.CreditedAmount));
            Assert.Equal(typeof(Deposit), WebhookEventTypes.DataTypeOf(e.Type));
        }
    }

    [Fact]
    public void A_reversed_transfer_is_a_deposit_event_whose_data_reads_as_a_Deposit()
    {
        const string address = "0x52908400098527886E0F7030069857D2E4169EE7";
        var body = Signer.DepositCompleted
            .Replace("\"type\":\"deposit.completed\"", "\"type\":\"deposit.transfer_reversed\"")
            .Replace("\"network\":\"tron\",\"address\":\"TJRabPrwbZy45sbavfcjinPJC18kjpRTv8\"", $"\"network\":\"bsc\",\"address\":\"{address}\"");

        var e = WebhookSignature.Verify(body, Signer.Headers(body, Now), Signer.Secret, AtNow);

        Assert.Equal(WebhookEventTypes.DepositTransferReversed, e.Type);
        Assert.Equal(typeof(Deposit), WebhookEventTypes.DataTypeOf(e.Type));
        var deposit = e.DataAs<Deposit>();
        Assert.Equal(("bsc", address), (deposit.Network, deposit.Address));
    }

    [Fact]
    public void A_held_deposit_is_a_deposit_event_whose_data_reads_as_a_Deposit_with_its_HoldReason()
    {
        var body = Signer.DepositCompleted
            .Replace("\"type\":\"deposit.completed\"", "\"type\":\"deposit.held\"")
            .Replace("\"creditedAmount\":\"25.000000\"", "\"creditedAmount\":\"0.000000\"")
            .Replace("\"status\":\"completed\",\"holdReason\":null", "\"status\":\"held\",\"holdReason\":\"address_frozen\"");

        var e = WebhookSignature.Verify(body, Signer.Headers(body, Now), Signer.Secret, AtNow);

        Assert.Equal(WebhookEventTypes.DepositHeld, e.Type);
        Assert.Equal(typeof(Deposit), WebhookEventTypes.DataTypeOf(e.Type));
        var deposit = e.DataAs<Deposit>();
        Assert.Equal(("held", "address_frozen", "25.000000", "0.000000"), (deposit.Status, deposit.HoldReason, deposit.ReceivedAmount, deposit.CreditedAmount));
    }

    [Fact]
    public void The_clock_comes_from_Now_a_TimeProvider_or_the_system_and_the_tolerance_is_configurable()
    {
        var body = Signer.DepositCompleted;
        var headers = Signer.Headers(body, Now);

        Assert.Equal("deposit.completed", WebhookSignature.Verify(body, headers, Signer.Secret, new WebhookVerifyOptions { TimeProvider = new FixedClock(Now.AddSeconds(299)) }).Type);
        var stale = Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify(body, headers, Signer.Secret, new WebhookVerifyOptions { Now = Now.AddSeconds(301) }));
        Assert.Contains("too old: 301 s before now, beyond the 300 s tolerance", stale.Message);
        Assert.Equal("deposit.completed", WebhookSignature.Verify(body, headers, Signer.Secret, new WebhookVerifyOptions { Now = Now.AddSeconds(301), Tolerance = TimeSpan.FromMinutes(10) }).Type);
        // Without options: the system clock, and 2026-01-01 is long gone.
        Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify(body, headers, Signer.Secret));
        var fresh = Signer.Headers(body, DateTimeOffset.UtcNow);
        Assert.Equal("deposit.completed", WebhookSignature.Verify(body, fresh, Signer.Secret).Type);
    }

    [Fact]
    public void A_body_re_serialised_by_JsonSerializer_is_refused_with_a_message_naming_the_mistake()
    {
        var body = Signer.DepositCompleted;
        var headers = Signer.Headers(body, Now);
        var reserialised = JsonSerializer.Serialize(JsonSerializer.Deserialize<JsonElement>(body), new JsonSerializerOptions { WriteIndented = true });

        var error = Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify(reserialised, headers, Signer.Secret, AtNow));

        Assert.Contains("re-serialised", error.Message);
        Assert.Contains("raw request body", error.Message);
    }

    [Fact]
    public void A_wrong_or_malformed_secret_and_missing_headers_are_refused_clearly()
    {
        var body = Signer.DepositCompleted;
        var headers = Signer.Headers(body, Now);

        Assert.Equal("deposit.completed", WebhookSignature.Verify(body, headers, Signer.Secret["whsec_".Length..], AtNow).Type);
        Assert.Contains("not base64", Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify(body, headers, "not-a-secret", AtNow)).Message);
        Assert.Contains("not base64", Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify(body, headers, "whsec_!!!", AtNow)).Message);
        Assert.Contains("secret is empty", Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify(body, headers, "whsec_", AtNow)).Message);
        var mismatch = Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify(body, headers, "whsec_" + Convert.ToBase64String(new byte[24]), AtNow)).Message;
        Assert.StartsWith("No matching signature: the secret is not this webhook's", mismatch);
        Assert.DoesNotContain("body was re-serialised", mismatch);
        Assert.Contains("Missing webhook-id", Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify(body, new Dictionary<string, string>(), Signer.Secret, AtNow)).Message);
        Assert.Contains("ToString()", Assert.Throws<WebhookVerificationException>(() => WebhookSignature.Verify("System.Text.Json.JsonElement", headers, Signer.Secret, AtNow)).Message);
    }

    [Fact]
    public void A_valid_signature_over_a_body_that_is_not_an_event_returns_an_unknown_event()
    {
        var headers = Signer.Headers("not json", Now);
        var verified = WebhookSignature.Verify("not json", headers, Signer.Secret, AtNow);
        Assert.False(verified.IsCambioEvent);
        Assert.Null(verified.Type);
        Assert.Equal(headers["webhook-id"], verified.Id);
        Assert.Equal(JsonValueKind.Undefined, verified.Data.ValueKind);
        WebhookSignature.VerifySignature("not json", headers, Signer.Secret, AtNow);
    }

    private sealed class FixedClock(DateTimeOffset now) : TimeProvider
    {
        public override DateTimeOffset GetUtcNow() => now;
    }
}
