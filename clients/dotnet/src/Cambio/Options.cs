using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Text.Json.Serialization;

namespace Cambio;

/// <summary>How to build a <see cref="CambioClient"/>: one instance per (key, secret, URL), shared by the whole application.</summary>
public sealed class CambioClientOptions
{
    /// <summary>The API key (<c>X-Api-Key</c>). Required.</summary>
    public string? ApiKey { get; set; }

    /// <summary>The API secret (<c>X-Api-Secret</c>). Required. Never printed by <see cref="ToString"/>, the client's, or any error.</summary>
    [JsonIgnore]
    public string? ApiSecret { get; set; }

    /// <summary>The API's URL, required, with or without the trailing <c>/v1</c>: your stack's <c>ApiUrl</c> output
    /// (<c>https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1</c>), or for the local runtime the URL
    /// <c>npm start</c> prints (<c>http://127.0.0.1:3000/v1</c>). Plain http only for loopback.</summary>
    public string? BaseUrl { get; set; }

    /// <summary>Retries after the first try, on connection failures, timeouts, 409 <c>IDEMPOTENCY_KEY_IN_USE</c>, 429 and 5xx. Default 2.</summary>
    public int MaxRetries { get; set; } = 2;

    /// <summary>The time one try may take, answer body included. Default 30 s.</summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Backoff before retry n (0-based): a random delay between half and all of
    /// min(<see cref="MaxRetryDelay"/>, <see cref="InitialRetryDelay"/> × 2^n). Default 0.5 s.</summary>
    public TimeSpan InitialRetryDelay { get; set; } = TimeSpan.FromMilliseconds(500);

    /// <summary>The backoff's cap. Default 5 s.</summary>
    public TimeSpan MaxRetryDelay { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>A <c>Retry-After</c> (seconds or an HTTP date) up to this long is waited instead of the backoff. Default 60 s.</summary>
    public TimeSpan MaxRetryAfter { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>Your own <see cref="System.Net.Http.HttpClient"/> (e.g. from <c>IHttpClientFactory</c>); the client neither
    /// disposes it nor uses its <c>Timeout</c> (it applies <see cref="Timeout"/> per try). Turn automatic redirects off on
    /// its handler: a redirect would carry the key and secret to another URL. By default the client makes its own.</summary>
    [JsonIgnore]
    public HttpClient? HttpClient { get; set; }

    /// <summary>Shows the options without the secret.</summary>
    public override string ToString() =>
        $"CambioClientOptions {{ BaseUrl = {BaseUrl}, ApiKey = {CambioClient.Redact(ApiKey)}, ApiSecret = {(string.IsNullOrEmpty(ApiSecret) ? "(none)" : "[redacted]")}, MaxRetries = {MaxRetries}, Timeout = {Timeout} }}";
}

/// <summary>Per-call options, the optional argument after a call's own.</summary>
public sealed class RequestOptions
{
    /// <summary>The POST's <c>Idempotency-Key</c> (1–255 printable ASCII characters; the call throws <see cref="ArgumentException"/>
    /// for another, a line break included, before sending). By default a fresh UUID per call, reused by
    /// that call's retries. Pass your own (e.g. derived from your order id) to make a call safe to repeat across restarts.</summary>
    public string? IdempotencyKey { get; set; }

    /// <summary>Overrides the client's <see cref="CambioClientOptions.MaxRetries"/> for this call.</summary>
    public int? MaxRetries { get; set; }
}

/// <summary>A list call's paging: newest first.</summary>
public sealed class ListOptions
{
    /// <summary>Page size, 1–100; the API's default is 20.</summary>
    public int? Limit { get; set; }

    /// <summary>The <see cref="Page{T}.NextCursor"/> of the previous page.</summary>
    public string? Cursor { get; set; }
}

/// <summary>One page of a list.</summary>
public sealed record Page<T>
{
    /// <summary>This page's items, newest first.</summary>
    public required IReadOnlyList<T> Data { get; init; }

    /// <summary>Pass as <see cref="ListOptions.Cursor"/> for the next page; null on the last one.</summary>
    public string? NextCursor { get; init; }

    /// <summary>Whether a next page exists.</summary>
    public bool HasMore => NextCursor is not null;

    /// <summary>The answer's <c>X-Request-Id</c>.</summary>
    public string? RequestId { get; init; }
}
