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

    /// <summary>The event type, e.g. <c>deposit.completed</c> (see <see cref="WebhookEventTypes"/>); null when the verified
    /// body is not a Cambio event (not JSON, or without <c>id</c>, <c>type</c> and <c>data</c>): then <see cref="IsCambioEvent"/>
    /// is false, <see cref="Id"/> is the <c>webhook-id</c> header and <see cref="Data"/> is undefined.</summary>
    public string? Type { get; init; }

    /// <summary>False for a verified body that is not a Cambio event (<see cref="Type"/> is null).</summary>
    public bool IsCambioEvent => Type is not null;

    /// <summary>When the event happened, if the body says.</summary>
    public DateTimeOffset? CreatedAt { get; init; }

    /// <summary>The record the event is about (a Deposit, Withdrawal or Conversion: <see cref="WebhookEventTypes.DataTypeOf"/>),
    /// as JSON; read it with <see cref="DataAs{T}"/>.</summary>
    public JsonElement Data { get; init; }

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
/// Standard Webhooks verification (https://www.standardwebhooks.com/), usable without a client, in two
/// steps as the reference libraries and Stripe's do it: first the signature and the timestamp, then the
/// body. The signature is base64(HMAC-SHA256(key, <c>{webhook-id}.{webhook-timestamp}.{body}</c>)) over
/// the exact bytes Cambio sent, the key being the secret's base64 (after an optional <c>whsec_</c>, padded
/// or not). Any of the space-separated <c>v1,</c> signatures may match (compared in constant time; other
/// versions are ignored), and the timestamp must be within the tolerance (default 300 s) either way. A
/// body that verifies is never reported as a bad signature: one that is not a Cambio event is returned
/// with a null <see cref="WebhookEvent.Type"/>.
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
    /// <param name="secret">The webhook's signing secret, <c>whsec_…</c>, as <c>Webhooks.CreateAsync</c> answered it (or its raw base64 key).</param>
    /// <param name="options">Tolerance and clock.</param>
    /// <exception cref="WebhookVerificationException">Forged, tampered, stale, or a body that is not the raw one: the message says what failed.</exception>
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

    /// <summary>The first step of <c>Verify</c> alone: throws, saying what failed, unless the delivery is signed with
    /// <paramref name="secret"/> and fresh; the body is not read.</summary>
    /// <inheritdoc cref="Verify(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public static void VerifySignature(string rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        SignedDeliveryId(Utf8(rawBody), Lookup(headers), secret, options);

    /// <inheritdoc cref="VerifySignature(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public static void VerifySignature(byte[] rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        SignedDeliveryId(Bytes(rawBody), Lookup(headers), secret, options);

    /// <inheritdoc cref="VerifySignature(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public static void VerifySignature<TValues>(string rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        SignedDeliveryId(Utf8(rawBody), Lookup(headers), secret, options);

    /// <inheritdoc cref="VerifySignature(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public static void VerifySignature<TValues>(byte[] rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        SignedDeliveryId(Bytes(rawBody), Lookup(headers), secret, options);

    private static WebhookEvent VerifyCore(ReadOnlySpan<byte> rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options) =>
        Parse(rawBody, SignedDeliveryId(rawBody, header, secret, options));

    /// <summary>The <c>webhook-id</c> of a delivery signed with the secret and fresh; throws, saying what failed, otherwise.</summary>
    private static string SignedDeliveryId(ReadOnlySpan<byte> rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options)
    {
        var key = SigningKey(secret);
        if (header is null) throw new WebhookVerificationException("No headers given: pass the delivery's request headers");
        var id = header("webhook-id");
        var timestamp = header("webhook-timestamp");
        var signatures = header("webhook-signature");
        if (string.IsNullOrEmpty(id) || string.IsNullOrEmpty(timestamp) || string.IsNullOrEmpty(signatures))
        {
            var missing = new[] { ("webhook-id", id), ("webhook-timestamp", timestamp), ("webhook-signature", signatures) }
                .Where(pair => string.IsNullOrEmpty(pair.Item2)).Select(pair => pair.Item1);
            throw new WebhookVerificationException($"Missing {string.Join(", ", missing)} header: is this a Cambio delivery? Pass the request's headers, unchanged.");
        }
        if (!Regex.IsMatch(timestamp, "^[0-9]{1,15}$"))
        {
            throw new WebhookVerificationException($"webhook-timestamp is not unix seconds: \"{timestamp[..Math.Min(40, timestamp.Length)]}\"");
        }
        CheckFreshness(long.Parse(timestamp, System.Globalization.CultureInfo.InvariantCulture), options);
        var candidates = signatures.Split(' ', StringSplitOptions.RemoveEmptyEntries)
            .Where(entry => entry.StartsWith("v1,", StringComparison.Ordinal))
            .Select(entry => Base64(entry[3..]))
            .Where(candidate => candidate is not null)
            .Select(candidate => candidate!)
            .ToList();
        if (!AnyMatches(candidates, Sign(key, id, timestamp, rawBody)))
        {
            throw new WebhookVerificationException($"No matching signature: {Diagnose(rawBody, key, id, timestamp, candidates)}");
        }
        return id;
    }

    private static void CheckFreshness(long seconds, WebhookVerifyOptions? options)
    {
        var tolerance = (long)(options?.Tolerance ?? DefaultTolerance).TotalSeconds;
        var age = (options?.Now ?? (options?.TimeProvider ?? TimeProvider.System).GetUtcNow()).ToUnixTimeSeconds() - seconds;
        var beyond = $"beyond the {tolerance} s tolerance (a replayed or delayed delivery, or a wrong clock)";
        if (age > tolerance) throw new WebhookVerificationException($"webhook-timestamp is too old: {age} s before now, {beyond}");
        if (-age > tolerance) throw new WebhookVerificationException($"webhook-timestamp is in the future: {-age} s after now, {beyond}");
    }

    /// <summary>Constant time: every candidate is compared.</summary>
    private static bool AnyMatches(List<byte[]> candidates, byte[] expected)
    {
        var matched = false;
        foreach (var candidate in candidates) matched |= CryptographicOperations.FixedTimeEquals(candidate, expected);
        return matched;
    }

    /// <summary>The event when the verified body is one (an object with a string <c>id</c> and <c>type</c> and an object
    /// <c>data</c>); otherwise an event with a null type whose id is the <c>webhook-id</c> header.</summary>
    private static WebhookEvent Parse(ReadOnlySpan<byte> rawBody, string headerId)
    {
        var unknown = new WebhookEvent { Id = headerId };
        JsonElement root;
        try
        {
            var reader = new Utf8JsonReader(rawBody);
            using var document = JsonDocument.ParseValue(ref reader);
            root = document.RootElement.Clone();
        }
        catch (JsonException)
        {
            return unknown;
        }
        if (root.ValueKind != JsonValueKind.Object
            || !root.TryGetProperty("id", out var id) || id.ValueKind != JsonValueKind.String
            || !root.TryGetProperty("type", out var type) || type.ValueKind != JsonValueKind.String
            || !root.TryGetProperty("data", out var data) || data.ValueKind != JsonValueKind.Object)
        {
            return unknown;
        }
        DateTimeOffset? createdAt = root.TryGetProperty("createdAt", out var created) && created.ValueKind == JsonValueKind.String && created.TryGetDateTimeOffset(out var at) ? at : null;
        return new WebhookEvent { Id = id.GetString()!, Type = type.GetString()!, CreatedAt = createdAt, Data = data };
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

    /// <summary>The secret's base64 after an optional <c>whsec_</c>, padding optional (as the reference libraries take it).</summary>
    private static byte[] SigningKey(string secret)
    {
        if (secret is null) throw new WebhookVerificationException("The secret is null: pass the webhook's signing secret, \"whsec_…\", as POST /v1/webhooks answered it");
        // A secret read from an env file or pasted keeps a newline or spaces around it: trimmed first,
        // then the prefix comes off (as the other clients do).
        var trimmed = secret.Trim();
        var encoded = (trimmed.StartsWith("whsec_", StringComparison.Ordinal) ? trimmed["whsec_".Length..] : trimmed).TrimEnd('=');
        if (encoded.Length == 0) throw new WebhookVerificationException("The secret is empty: pass the webhook's signing secret, \"whsec_…\", as POST /v1/webhooks answered it");
        return Base64(encoded.PadRight(encoded.Length + ((4 - (encoded.Length % 4)) % 4), '='))
            ?? throw new WebhookVerificationException("The secret is not base64 after \"whsec_\": copy it whole, as POST /v1/webhooks answered it");
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

    /// <summary>Why no signature matched, as far as it can be known: the mistakes that leave a mark are named, anything else is not guessed at.</summary>
    private static string Diagnose(ReadOnlySpan<byte> rawBody, byte[] key, string id, string timestamp, List<byte[]> candidates)
    {
        if (candidates.Count == 0) return "webhook-signature holds no v1 signature (\"v1,<base64>\"), the only scheme Cambio signs with.";
        var body = Encoding.UTF8.GetString(rawBody);
        if (Regex.IsMatch(body, @"^[A-Za-z_][\w`]*(\.[A-Za-z_][\w`]*)+(\[.*\])?$"))
        {
            return $"the body is \"{body}\": an object was turned into a string with ToString(). {RawBodyHint}";
        }
        string compact;
        try
        {
            // Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
            compact = JsonNode.Parse(body)?.ToJsonString(new JsonSerializerOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }) ?? "null";
        }
        catch (JsonException)
        {
            compact = body;
        }
        if (compact != body && AnyMatches(candidates, Sign(key, id, timestamp, Encoding.UTF8.GetBytes(compact))))
        {
            return $"the body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. {RawBodyHint}";
        }
        return $"the secret is not this webhook's, or the body or webhook-id is not what was signed. {RawBodyHint}";
    }
}
