using System;
using System.Collections.Generic;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace Cambio;

/// <summary>What Cambio POSTed to a webhook, once its signature is verified.</summary>
public sealed record WebhookEvent
{
    /// <summary>The event id (<c>evt_…</c>), also the <c>webhook-id</c> header: the same on every retry, so deduplicate on it.</summary>
    public required string Id { get; init; }

    /// <summary>The event type, e.g. <c>deposit.completed</c> (see <see cref="WebhookEventTypes"/>).</summary>
    public required string Type { get; init; }

    /// <summary>When the event happened, if the body says.</summary>
    public DateTimeOffset? CreatedAt { get; init; }

    /// <summary>The record the event is about (a Deposit, Withdrawal or Conversion: <see cref="WebhookEventTypes.DataTypeOf"/>),
    /// as JSON; read it with <see cref="DataAs{T}"/>.</summary>
    public required JsonElement Data { get; init; }

    /// <summary>Reads <see cref="Data"/> as a record, e.g. <c>DataAs&lt;Deposit&gt;()</c> for a <c>deposit.*</c> event.</summary>
    /// <exception cref="JsonException">The data is not that record.</exception>
    public T DataAs<T>() => Data.Deserialize<T>(CambioJson.Options) ?? throw new JsonException("data is null");
}

/// <summary>Options of a webhook verification.</summary>
public sealed class WebhookVerifyOptions
{
    /// <summary>How far <c>webhook-timestamp</c> may be from now, either way (replay protection). Default 300 s.</summary>
    public TimeSpan Tolerance { get; set; } = WebhookSignature.DefaultTolerance;

    /// <summary>The current time, for tests; wins over <see cref="TimeProvider"/>.</summary>
    public DateTimeOffset? Now { get; set; }

    /// <summary>The clock, for tests; default <see cref="System.TimeProvider.System"/>.</summary>
    public TimeProvider? TimeProvider { get; set; }
}

/// <summary>
/// Standard Webhooks verification (https://www.standardwebhooks.com/), usable without a client: the
/// signature is base64(HMAC-SHA256(key, <c>{webhook-id}.{webhook-timestamp}.{body}</c>)) over the exact
/// bytes Cambio sent, the key being the base64-decoded part of the secret after <c>whsec_</c>. Any
/// of the space-separated <c>v1,</c> signatures may match (compared in constant time), and the
/// timestamp must be within the tolerance (default 300 s).
/// </summary>
public static class WebhookSignature
{
    /// <summary>The default tolerance of <c>webhook-timestamp</c>: 5 minutes.</summary>
    public static readonly TimeSpan DefaultTolerance = TimeSpan.FromMinutes(5);

    private const string RawBodyHint =
        "Pass the raw request body exactly as received (a string or bytes; in ASP.NET Core read Request.Body with a StreamReader " +
        "after Request.EnableBuffering(), before any model binding), not a parsed object re-serialised with JsonSerializer.Serialize.";

    /// <summary>Verifies a delivery and returns its event.</summary>
    /// <param name="rawBody">The request body exactly as received.</param>
    /// <param name="headers">The request's headers; names match case-insensitively.</param>
    /// <param name="secret">The webhook's signing secret, <c>whsec_…</c>, as <c>Webhooks.CreateAsync</c> answered it.</param>
    /// <param name="options">Tolerance and clock.</param>
    /// <exception cref="WebhookVerificationException">Forged, tampered, stale, or a body that is not the raw one.</exception>
    public static WebhookEvent Verify(string rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(Utf8(rawBody), Lookup(headers), secret, options);

    /// <inheritdoc cref="Verify(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public static WebhookEvent Verify(byte[] rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(Bytes(rawBody), Lookup(headers), secret, options);

    /// <inheritdoc cref="Verify(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public static WebhookEvent Verify(ReadOnlySpan<byte> rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(rawBody, Lookup(headers), secret, options);

    /// <summary>Verifies a delivery whose headers are name/values pairs (ASP.NET Core's <c>Request.Headers</c>, <c>HttpHeaders</c>,
    /// a <c>Dictionary&lt;string, string[]&gt;</c>…); several values of one header are joined with spaces.</summary>
    /// <inheritdoc cref="Verify(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public static WebhookEvent Verify<TValues>(string rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(Utf8(rawBody), Lookup(headers), secret, options);

    /// <inheritdoc cref="Verify{TValues}(string, IEnumerable{KeyValuePair{string, TValues}}, string, WebhookVerifyOptions?)"/>
    public static WebhookEvent Verify<TValues>(byte[] rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(Bytes(rawBody), Lookup(headers), secret, options);

    /// <inheritdoc cref="Verify{TValues}(string, IEnumerable{KeyValuePair{string, TValues}}, string, WebhookVerifyOptions?)"/>
    public static WebhookEvent Verify<TValues>(ReadOnlySpan<byte> rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(rawBody, Lookup(headers), secret, options);

    /// <summary>Verifies a delivery whose headers are read by name, e.g. <c>name =&gt; Request.Headers[name]</c>
    /// (the function is asked for <c>webhook-id</c>, <c>webhook-timestamp</c> and <c>webhook-signature</c>).</summary>
    /// <inheritdoc cref="Verify(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public static WebhookEvent Verify(string rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(Utf8(rawBody), header, secret, options);

    /// <inheritdoc cref="Verify(string, Func{string, string?}, string, WebhookVerifyOptions?)"/>
    public static WebhookEvent Verify(byte[] rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(Bytes(rawBody), header, secret, options);

    /// <inheritdoc cref="Verify(string, Func{string, string?}, string, WebhookVerifyOptions?)"/>
    public static WebhookEvent Verify(ReadOnlySpan<byte> rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options = null) =>
        VerifyCore(rawBody, header, secret, options);

    private static WebhookEvent VerifyCore(ReadOnlySpan<byte> rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options)
    {
        if (header is null) throw new WebhookVerificationException("No headers given: pass the delivery's request headers");
        var id = header("webhook-id");
        var timestamp = header("webhook-timestamp");
        var signatures = header("webhook-signature");
        if (string.IsNullOrEmpty(id) || string.IsNullOrEmpty(timestamp) || string.IsNullOrEmpty(signatures))
        {
            throw new WebhookVerificationException("Missing webhook-id, webhook-timestamp or webhook-signature header: is this a Cambio delivery?");
        }
        if (!Regex.IsMatch(timestamp, "^[0-9]{1,15}$")) throw new WebhookVerificationException("webhook-timestamp is not unix seconds");
        var seconds = long.Parse(timestamp, System.Globalization.CultureInfo.InvariantCulture);
        var tolerance = options?.Tolerance ?? DefaultTolerance;
        var now = (options?.Now ?? (options?.TimeProvider ?? TimeProvider.System).GetUtcNow()).ToUnixTimeSeconds();
        if (Math.Abs(now - seconds) > tolerance.TotalSeconds)
        {
            throw new WebhookVerificationException(
                $"webhook-timestamp is {now - seconds} s from now, beyond the {tolerance.TotalSeconds:0} s tolerance: a replayed or delayed delivery, or a wrong clock");
        }
        var key = SigningKey(secret);
        var candidates = signatures.Split(' ', StringSplitOptions.RemoveEmptyEntries)
            .Where(entry => entry.StartsWith("v1,", StringComparison.Ordinal))
            .Select(entry => Base64(entry[3..]))
            .Where(candidate => candidate is not null)
            .Select(candidate => candidate!)
            .ToList();
        var expected = Sign(key, id, timestamp, rawBody);
        var matched = false;
        foreach (var candidate in candidates) matched |= CryptographicOperations.FixedTimeEquals(candidate, expected);
        if (!matched)
        {
            throw new WebhookVerificationException($"No signature matches. {Diagnose(rawBody, key, id, timestamp, candidates)}");
        }
        return Parse(rawBody, id);
    }

    private static WebhookEvent Parse(ReadOnlySpan<byte> rawBody, string headerId)
    {
        JsonElement root;
        try
        {
            var reader = new Utf8JsonReader(rawBody);
            using var document = JsonDocument.ParseValue(ref reader);
            root = document.RootElement.Clone();
        }
        catch (JsonException error)
        {
            throw new WebhookVerificationException("The signature matches but the body is not JSON", error);
        }
        if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("type", out var type) || type.ValueKind != JsonValueKind.String
            || !root.TryGetProperty("data", out var data))
        {
            throw new WebhookVerificationException("The signature matches but the body is not a Cambio event ({id, type, createdAt, data})");
        }
        DateTimeOffset? createdAt = root.TryGetProperty("createdAt", out var created) && created.ValueKind == JsonValueKind.String && created.TryGetDateTimeOffset(out var at) ? at : null;
        var id = root.TryGetProperty("id", out var bodyId) && bodyId.ValueKind == JsonValueKind.String ? bodyId.GetString()! : headerId;
        return new WebhookEvent { Id = id, Type = type.GetString()!, CreatedAt = createdAt, Data = data };
    }

    private static byte[] Utf8(string rawBody) =>
        rawBody is null ? throw new WebhookVerificationException($"rawBody is null, not the request body. {RawBodyHint}") : Encoding.UTF8.GetBytes(rawBody);

    private static byte[] Bytes(byte[] rawBody) =>
        rawBody ?? throw new WebhookVerificationException($"rawBody is null, not the request body. {RawBodyHint}");

    private static Func<string, string?> Lookup(IDictionary<string, string> headers)
    {
        if (headers is null) throw new WebhookVerificationException("No headers given: pass the delivery's request headers");
        return name =>
        {
            if (headers.TryGetValue(name, out var exact)) return exact;
            var found = headers.Where(pair => string.Equals(pair.Key, name, StringComparison.OrdinalIgnoreCase)).Select(pair => pair.Value).ToList();
            return found.Count == 0 ? null : string.Join(" ", found);
        };
    }

    private static Func<string, string?> Lookup<TValues>(IEnumerable<KeyValuePair<string, TValues>> headers)
    {
        if (headers is null) throw new WebhookVerificationException("No headers given: pass the delivery's request headers");
        return name =>
        {
            var values = headers.Where(pair => string.Equals(pair.Key, name, StringComparison.OrdinalIgnoreCase))
                .SelectMany(pair => pair.Value switch
                {
                    null => Array.Empty<string>(),
                    string one => new[] { one },
                    IEnumerable<string?> many => many.Where(v => v is not null).Select(v => v!),
                    var other => new[] { other.ToString() ?? "" },
                })
                .ToList();
            return values.Count == 0 ? null : string.Join(" ", values);
        };
    }

    private static byte[] SigningKey(string secret)
    {
        if (secret is null || !secret.StartsWith("whsec_", StringComparison.Ordinal))
        {
            throw new WebhookVerificationException("The secret must be the webhook's signing secret, \"whsec_…\", as POST /v1/webhooks answered it");
        }
        return Base64(secret["whsec_".Length..])
            ?? throw new WebhookVerificationException("The secret is not \"whsec_\" followed by base64: copy it whole, as POST /v1/webhooks answered it");
    }

    private static byte[]? Base64(string text)
    {
        var buffer = new byte[(text.Length * 3 / 4) + 3];
        return Convert.TryFromBase64String(text, buffer, out var written) ? buffer.AsSpan(0, written).ToArray() : null;
    }

    private static byte[] Sign(byte[] key, string id, string timestamp, ReadOnlySpan<byte> body)
    {
        var prefix = Encoding.UTF8.GetBytes($"{id}.{timestamp}.");
        var content = new byte[prefix.Length + body.Length];
        prefix.CopyTo(content, 0);
        body.CopyTo(content.AsSpan(prefix.Length));
        return HMACSHA256.HashData(key, content);
    }

    /// <summary>Names the usual mistake when the body looks like it was parsed and serialised again.</summary>
    private static string Diagnose(ReadOnlySpan<byte> rawBody, byte[] key, string id, string timestamp, List<byte[]> candidates)
    {
        var body = Encoding.UTF8.GetString(rawBody);
        if (Regex.IsMatch(body, @"^[A-Za-z_][\w`]*(\.[A-Za-z_][\w`]*)+(\[.*\])?$"))
        {
            return $"The body is \"{body}\": an object was turned into a string with ToString(). {RawBodyHint}";
        }
        JsonNode? parsed;
        try
        {
            parsed = JsonNode.Parse(body);
        }
        catch (JsonException)
        {
            return $"Check that the secret is this webhook's and that the body is unchanged. {RawBodyHint}";
        }
        // Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
        var compact = parsed?.ToJsonString(new JsonSerializerOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }) ?? "null";
        if (compact != body)
        {
            var compactSignature = Sign(key, id, timestamp, Encoding.UTF8.GetBytes(compact));
            if (candidates.Any(candidate => CryptographicOperations.FixedTimeEquals(candidate, compactSignature)))
            {
                return $"The body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. {RawBodyHint}";
            }
            return $"The body looks like re-serialised JSON (re-indented, re-ordered or re-escaped), not the bytes Cambio signed. {RawBodyHint}";
        }
        return "The body is JSON: if your framework parsed it and you serialised it again, its bytes may differ from what Cambio " +
            $"signed (key order, escapes). {RawBodyHint} Otherwise check that the secret is this webhook's.";
    }
}
