using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Net;
using System.Net.Http;
using System.Net.Http.Headers;
using System.Net.Sockets;
using System.Reflection;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Threading;
using System.Threading.Tasks;

namespace Cambio;

/// <summary>
/// The Cambio API. Build one per (API key, secret, URL) and share it: an instance is safe to use
/// from many threads and tasks at once (it holds no per-call state, and its <see cref="HttpClient"/>
/// is thread-safe). Every POST carries an <c>Idempotency-Key</c> (a UUID unless you pass one in
/// <see cref="RequestOptions"/>), the same on each retry of that call, so a retried withdrawal is
/// replayed by the API, never made twice.
/// </summary>
public sealed class CambioClient : IDisposable
{
    /// <summary>Where the base URL comes from, for the errors that ask for one.</summary>
    internal const string WhereTheUrlIs =
        "the `ApiUrl` output of your Cambio stack (printed by `cdk deploy`, e.g. https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1), " +
        "or for the local runtime the API URL `npm start` prints (http://127.0.0.1:3000/v1)";

    /// <summary>This client's version (the package's).</summary>
    public static readonly string Version = ReadVersion();

    /// <summary>The <c>User-Agent</c> every request sends: <c>cambio-dotnet/{version} dotnet/{runtime version}</c>.</summary>
    public static readonly string UserAgent = $"cambio-dotnet/{Version} dotnet/{Environment.Version}";

    private readonly string _apiKey;
    private readonly string _apiSecret;
    private readonly int _maxRetries;
    private readonly TimeSpan _timeout;
    private readonly TimeSpan _initialDelay;
    private readonly TimeSpan _maxDelay;
    private readonly TimeSpan _maxRetryAfter;
    private readonly HttpClient _http;
    private readonly bool _ownsHttp;

    /// <summary>Checks the options (before any request carries the key and secret) and builds the client.</summary>
    /// <exception cref="ArgumentException">A missing key, secret or URL; a key or secret with a space, a line break or another
    /// character outside printable ASCII; a URL that is not http(s), plain http off loopback,
    /// or carries credentials, a query or a fragment; a negative retry count or a non-positive timeout.</exception>
    public CambioClient(CambioClientOptions options)
    {
        if (options is null) throw new ArgumentNullException(nameof(options), "new CambioClient(new CambioClientOptions { ApiKey, ApiSecret, BaseUrl }) needs its options");
        if (string.IsNullOrWhiteSpace(options.ApiKey) || string.IsNullOrWhiteSpace(options.ApiSecret))
        {
            throw new ArgumentException("new CambioClient(new CambioClientOptions { ApiKey, ApiSecret, BaseUrl }) needs ApiKey and ApiSecret (from the dashboard's Integrations → API keys, or `npm run company:create`)", nameof(options));
        }
        // Checked here, without echoing the value: headers are added without validation, so a line
        // break (a secret read from a file keeps its newline) would inject a header.
        if (!IsVisibleAscii(options.ApiKey!, 1, int.MaxValue))
        {
            throw new ArgumentException("ApiKey must be printable ASCII without spaces (check for a stray newline or quote around it)", nameof(options));
        }
        if (!IsVisibleAscii(options.ApiSecret!, 1, int.MaxValue))
        {
            throw new ArgumentException("ApiSecret must be printable ASCII without spaces (check for a stray newline or quote around it)", nameof(options));
        }
        BaseUrl = BaseUrlOf(options.BaseUrl);
        if (options.MaxRetries < 0) throw new ArgumentException($"MaxRetries must be 0 or more, got {options.MaxRetries}", nameof(options));
        if (options.Timeout <= TimeSpan.Zero && options.Timeout != System.Threading.Timeout.InfiniteTimeSpan) throw new ArgumentException($"Timeout must be positive, got {options.Timeout}", nameof(options));
        if (options.InitialRetryDelay < TimeSpan.Zero || options.MaxRetryDelay < TimeSpan.Zero || options.MaxRetryAfter < TimeSpan.Zero)
        {
            throw new ArgumentException("InitialRetryDelay, MaxRetryDelay and MaxRetryAfter must not be negative", nameof(options));
        }
        _apiKey = options.ApiKey;
        _apiSecret = options.ApiSecret;
        _maxRetries = options.MaxRetries;
        _timeout = options.Timeout;
        _initialDelay = options.InitialRetryDelay;
        _maxDelay = options.MaxRetryDelay;
        _maxRetryAfter = options.MaxRetryAfter;
        if (options.HttpClient is { } http)
        {
            _http = http;
        }
        else
        {
            // No redirects: one would carry X-Api-Secret to whatever URL the answer names.
#if NETSTANDARD2_0
            var handler = new HttpClientHandler
            {
                AllowAutoRedirect = false,
                AutomaticDecompression = DecompressionMethods.GZip | DecompressionMethods.Deflate,
            };
#else
            var handler = new SocketsHttpHandler
            {
                AllowAutoRedirect = false,
                PooledConnectionLifetime = TimeSpan.FromMinutes(5),
                AutomaticDecompression = DecompressionMethods.All,
            };
#endif
            _http = new HttpClient(handler) { Timeout = System.Threading.Timeout.InfiniteTimeSpan };
            _ownsHttp = true;
        }
        Company = new CompanyService(this);
        Deposits = new DepositService(this);
        Withdrawals = new WithdrawalService(this);
        Conversions = new ConversionService(this);
        Webhooks = new WebhookService(this);
    }

    /// <summary>The base URL requests go to, without a trailing <c>/v1</c> (each route adds it).</summary>
    public string BaseUrl { get; }

    /// <summary><c>GET /v1/company</c> and <c>GET /v1/company/balance</c>.</summary>
    public CompanyService Company { get; }

    /// <summary><c>/v1/deposits</c>.</summary>
    public DepositService Deposits { get; }

    /// <summary><c>/v1/withdrawals</c>.</summary>
    public WithdrawalService Withdrawals { get; }

    /// <summary><c>/v1/conversions</c> (USDT → BRL).</summary>
    public ConversionService Conversions { get; }

    /// <summary><c>/v1/webhooks</c>, and <see cref="WebhookService.Verify(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/> for deliveries.</summary>
    public WebhookService Webhooks { get; }

    /// <summary>Shows the client without its secret.</summary>
    public override string ToString() => $"CambioClient {{ BaseUrl = {BaseUrl}, ApiKey = {Redact(_apiKey)}, ApiSecret = [redacted] }}";

    /// <summary>Disposes the <see cref="HttpClient"/> the client made (never one you passed in).</summary>
    public void Dispose()
    {
        if (_ownsHttp) _http.Dispose();
    }

    /// <summary>Between <paramref name="min"/> and <paramref name="max"/> characters, each from ! to ~ (no space, no control character).</summary>
    private static bool IsVisibleAscii(string value, int min, int max) => IsAsciiBetween(value, min, max, '!');

    /// <summary>Between <paramref name="min"/> and <paramref name="max"/> characters, each from space to ~ (no control character).</summary>
    private static bool IsPrintableAscii(string value, int min, int max) => IsAsciiBetween(value, min, max, ' ');

    private static bool IsAsciiBetween(string value, int min, int max, char lowest)
    {
        if (value.Length < min || value.Length > max) return false;
        foreach (var c in value)
        {
            if (c < lowest || c > '~') return false;
        }
        return true;
    }

    internal static string Redact(string? key) =>
        string.IsNullOrEmpty(key) ? "(none)" : key.Length <= 8 ? "[redacted]" : key[..8] + "…";

    internal async Task<T> RequestAsync<T>(HttpMethod method, string path, object? body, RequestOptions? options, CancellationToken cancellationToken)
    {
        var answer = await SendAsync(method, path, body, options, cancellationToken).ConfigureAwait(false);
        using (answer.Document)
        {
            return Deserialize<T>(answer.Document.RootElement.GetProperty("data"), answer);
        }
    }

    /// <summary>A DELETE that answers <paramref name="goneIsDone"/>() (what a successful delete answers) when a retry
    /// gets 404 after a try that may have reached the API (a timeout, a lost connection, a 5xx): that try deleted it and
    /// its answer was lost. A 404 to the first try stays a <see cref="NotFoundException"/>, and so does one after tries
    /// that never connected (refused, host not found) or were answered 429.</summary>
    internal async Task<T> DeleteAsync<T>(string path, Func<T> goneIsDone, RequestOptions? options, CancellationToken cancellationToken)
    {
        var answer = await SendAsync(HttpMethod.Delete, path, null, options, cancellationToken, goneIsDone: true).ConfigureAwait(false);
        using (answer.Document)
        {
            return answer.Gone ? goneIsDone() : Deserialize<T>(answer.Document.RootElement.GetProperty("data"), answer);
        }
    }

    internal async Task<Page<T>> PageAsync<T>(string path, ListOptions? list, RequestOptions? options, CancellationToken cancellationToken)
    {
        var query = new List<string>();
        if (list?.Limit is { } limit) query.Add("limit=" + limit.ToString(CultureInfo.InvariantCulture));
        if (list?.Cursor is { } cursor) query.Add("cursor=" + Uri.EscapeDataString(cursor));
        var answer = await SendAsync(HttpMethod.Get, query.Count == 0 ? path : path + "?" + string.Join("&", query), null, options, cancellationToken).ConfigureAwait(false);
        using (answer.Document)
        {
            var root = answer.Document.RootElement;
            string? next = null;
            if (root.TryGetProperty("pagination", out var pagination) && pagination.ValueKind == JsonValueKind.Object
                && pagination.TryGetProperty("nextCursor", out var nextCursor) && nextCursor.ValueKind == JsonValueKind.String)
            {
                next = nextCursor.GetString();
            }
            return new Page<T> { Data = Deserialize<List<T>>(root.GetProperty("data"), answer), NextCursor = next, RequestId = answer.RequestId };
        }
    }

    internal async IAsyncEnumerable<T> AutoPageAsync<T>(string path, ListOptions? list, RequestOptions? options, [System.Runtime.CompilerServices.EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var cursor = list?.Cursor;
        var followed = new HashSet<string>(StringComparer.Ordinal);
        if (cursor is not null) followed.Add(cursor);
        for (;;)
        {
            var page = await PageAsync<T>(path, new ListOptions { Limit = list?.Limit, Cursor = cursor }, options, cancellationToken).ConfigureAwait(false);
            foreach (var item in page.Data) yield return item;
            if (page.NextCursor is null) yield break;
            if (!followed.Add(page.NextCursor))
            {
                // Following it again would walk the same pages forever; stopping would end the list early
                // without a word. Either way the answer is not what the API promises.
                throw new InvalidResponseException(
                    $"The API answered the cursor {page.NextCursor} again after it was followed: the list repeats, so it was not walked to its end (INVALID_RESPONSE{(page.RequestId is null ? "" : ", request " + page.RequestId)}; GET {BaseUrl}{path})",
                    null, page.RequestId);
            }
            cursor = page.NextCursor;
        }
    }

    private static T Deserialize<T>(JsonElement data, Answer answer)
    {
        try
        {
            return data.Deserialize<T>(CambioJson.Options) ?? throw new JsonException("data is null");
        }
        catch (JsonException error)
        {
            throw new InvalidResponseException($"The answer's data is not a {typeof(T).Name} as openapi.json describes it: {error.Message}", answer.Status, answer.RequestId, error);
        }
    }

    /// <summary>A successful answer; <c>Gone</c>: a DELETE's retry answered 404 after a try that may have done it (see <see cref="DeleteAsync{T}"/>).</summary>
    private readonly record struct Answer(JsonDocument Document, int Status, string? RequestId, bool Gone = false);

    private async Task<Answer> SendAsync(HttpMethod method, string path, object? body, RequestOptions? options, CancellationToken cancellationToken, bool goneIsDone = false)
    {
        var url = BaseUrl + path;
        var payload = body is null ? null : JsonSerializer.SerializeToUtf8Bytes(body, body.GetType(), CambioJson.Options);
        // One key per call, kept across its retries: the API replays the first answer instead of
        // doing the work again (api-contract.md, Conventions: Idempotency-Key).
        var idempotencyKey = method == HttpMethod.Post ? options?.IdempotencyKey ?? Guid.NewGuid().ToString() : null;
        if (idempotencyKey is not null && !IsPrintableAscii(idempotencyKey, 1, 255))
        {
            // The contract's Idempotency-Key, checked before it goes in a header added without validation.
            throw new ArgumentException("IdempotencyKey must be 1–255 printable ASCII characters (e.g. a GUID, or one derived from your order id)", nameof(options));
        }
        var maxRetries = options?.MaxRetries ?? _maxRetries;
        if (maxRetries < 0) throw new ArgumentException($"MaxRetries must be 0 or more, got {maxRetries}", nameof(options));

        var mayHaveBeenDone = false; // an earlier try may have done the work (its answer lost, or a 5xx)
        for (var attempt = 0; ; attempt++)
        {
            using var request = new HttpRequestMessage(method, url);
            request.Headers.TryAddWithoutValidation("X-Api-Key", _apiKey);
            request.Headers.TryAddWithoutValidation("X-Api-Secret", _apiSecret);
            request.Headers.TryAddWithoutValidation("Accept", "application/json");
            request.Headers.TryAddWithoutValidation("User-Agent", UserAgent);
            if (idempotencyKey is not null) request.Headers.TryAddWithoutValidation("Idempotency-Key", idempotencyKey);
            if (payload is not null)
            {
                request.Content = new ByteArrayContent(payload);
                request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json") { CharSet = "utf-8" };
            }

            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(_timeout);
            HttpResponseMessage response;
            byte[] bytes;
            try
            {
                (response, bytes) = await TryAsync(request, timeout.Token).ConfigureAwait(false);
            }
            catch (Exception error) when (error is HttpRequestException or OperationCanceledException or IOException && !cancellationToken.IsCancellationRequested)
            {
                var failure = NoAnswer(method, url, error);
                if (attempt >= maxRetries) throw failure;
                mayHaveBeenDone |= !NeverConnected(error);
                await Task.Delay(Backoff(attempt), cancellationToken).ConfigureAwait(false);
                continue;
            }
            using (response)
            {
                var status = (int)response.StatusCode;
                var requestId = response.Headers.TryGetValues("X-Request-Id", out var ids) ? string.Join(",", ids) : null;
                var document = ParseObject(bytes);
                if (document is not null && response.IsSuccessStatusCode
                    && document.RootElement.TryGetProperty("success", out var success) && success.ValueKind == JsonValueKind.True
                    && document.RootElement.TryGetProperty("data", out _))
                {
                    return new Answer(document, status, requestId);
                }
                CambioException refusal;
                using (document)
                {
                    refusal = ErrorFromResponse(status, document?.RootElement, requestId, method, url);
                }
                if (goneIsDone && mayHaveBeenDone && refusal is NotFoundException)
                {
                    return new Answer(JsonDocument.Parse("{}"), status, requestId, Gone: true);
                }
                if (attempt >= maxRetries || !Retryable(refusal)) throw refusal;
                if (refusal is ApiServerException) mayHaveBeenDone = true;
                await Task.Delay(RetryAfter(response) ?? Backoff(attempt), cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>One try: the answer and its whole body, both within the try's timeout. A failure while the body
    /// is read is a failure of the try, like one while connecting (the caller retries either the same way).</summary>
    private async Task<(HttpResponseMessage Response, byte[] Body)> TryAsync(HttpRequestMessage request, CancellationToken timeout)
    {
        var response = await _http.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, timeout).ConfigureAwait(false);
        try
        {
            return (response, await response.Content.ReadAsByteArrayAsync(timeout).ConfigureAwait(false));
        }
        catch
        {
            response.Dispose();
            throw;
        }
    }

    /// <summary>Whether a failed try ended before its connection was made (refused, its host not found): it never
    /// reached the API, so it did nothing, and a DELETE's 404 on the retry is the record's own answer. A timeout may
    /// have reached the API (it covers the whole try, connecting included), so it is not one of these.</summary>
    private static bool NeverConnected(Exception error)
    {
        for (var cause = error.InnerException; cause is not null; cause = cause.InnerException)
        {
            if (cause is SocketException { SocketErrorCode: SocketError.ConnectionRefused or SocketError.HostNotFound or SocketError.TryAgain or SocketError.NoData })
            {
                return true;
            }
        }
        return false;
    }

    private ConnectionException NoAnswer(HttpMethod method, string url, Exception error)
    {
        var timedOut = error is OperationCanceledException;
        return new ConnectionException(
            timedOut
                ? $"No answer within {_timeout.TotalMilliseconds:0} ms ({method} {url})"
                : $"Could not reach Cambio ({method} {url}): {error.Message}",
            timedOut ? "TIMEOUT" : "CONNECTION_FAILED",
            error);
    }

    /// <summary>The one mapping from an answer to its error family (as clients/node/src/errors.ts).</summary>
    private static CambioException ErrorFromResponse(int status, JsonElement? root, string? requestId, HttpMethod method, string url)
    {
        JsonElement? details = null;
        string? code = null;
        string? message = null;
        if (root is { ValueKind: JsonValueKind.Object } r && r.TryGetProperty("error", out var error) && error.ValueKind == JsonValueKind.Object
            && error.TryGetProperty("code", out var c) && c.ValueKind == JsonValueKind.String)
        {
            code = c.GetString();
            message = error.TryGetProperty("message", out var m) && m.ValueKind == JsonValueKind.String ? m.GetString() : null;
            details = error.TryGetProperty("details", out var d) ? d : null;
        }
        var where = requestId is null ? "" : $", request {requestId}";
        if (code is null)
        {
            // Not the API's envelope: a proxy's page, a redirect, an empty body.
            var what = root is null ? "without a JSON body" : "without the API's envelope";
            if (status >= 500) return new ApiServerException($"HTTP {status} {what} (INTERNAL_ERROR{where}; {method} {url})", "INTERNAL_ERROR", status, requestId);
            if (status == 429) return new RateLimitException($"HTTP {status} {what} (RATE_LIMITED{where})", "RATE_LIMITED", status, requestId);
            return new InvalidResponseException($"HTTP {status} {what} (INVALID_RESPONSE{where}; {method} {url})", status, requestId);
        }
        var text = $"{message ?? "HTTP " + status} ({code}{where})";
        return status switch
        {
            401 => new AuthenticationException(text, code, status, requestId, details),
            404 => new NotFoundException(text, code, status, requestId, details),
            409 => new ConflictException(text, code, status, requestId, details),
            422 => new RefusedException(text, code, status, requestId, details),
            429 => new RateLimitException(text, code, status, requestId, details),
            >= 500 => new ApiServerException(text, code, status, requestId, details),
            >= 400 => new InvalidRequestException(text, code, status, requestId, details),
            // success:false on a 2xx/3xx: not what the contract says.
            _ => new InvalidResponseException($"HTTP {status} with an error envelope: {text}", status, requestId),
        };
    }

    /// <summary>Connection failures and timeouts, 429, 5xx, and 409 IDEMPOTENCY_KEY_IN_USE (the first try is still running).</summary>
    private static bool Retryable(CambioException error) =>
        error is RateLimitException or ApiServerException or ConnectionException
        || (error is ConflictException && error.Code == "IDEMPOTENCY_KEY_IN_USE");

    private TimeSpan Backoff(int attempt) => Backoff(attempt, _initialDelay, _maxDelay, Random.Shared.NextDouble());

    /// <summary>Before retry n (0-based): between half and all of min(max, initial × 2^n), as <paramref name="jitter"/> (0–1) goes.</summary>
    internal static TimeSpan Backoff(int attempt, TimeSpan initial, TimeSpan max, double jitter)
    {
        var ceiling = Math.Min(max.TotalMilliseconds, initial.TotalMilliseconds * Math.Pow(2, Math.Min(attempt, 30)));
        return TimeSpan.FromMilliseconds(ceiling / 2 + jitter * (ceiling / 2));
    }

    private TimeSpan? RetryAfter(HttpResponseMessage response)
    {
        var header = response.Headers.RetryAfter;
        TimeSpan? wait = header?.Delta ?? (header?.Date is { } date ? date - DateTimeOffset.UtcNow : null);
        return wait is { } w && w >= TimeSpan.Zero && w <= _maxRetryAfter ? w : null;
    }

    private static JsonDocument? ParseObject(byte[] bytes)
    {
        if (bytes.Length == 0) return null;
        try
        {
            var document = JsonDocument.Parse(bytes);
            if (document.RootElement.ValueKind == JsonValueKind.Object) return document;
            document.Dispose();
            return null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    private static string BaseUrlOf(string? baseUrl)
    {
        if (string.IsNullOrWhiteSpace(baseUrl))
        {
            throw new ArgumentException($"new CambioClient(new CambioClientOptions {{ ApiKey, ApiSecret, BaseUrl }}) needs BaseUrl: {WhereTheUrlIs}", nameof(baseUrl));
        }
        if (!Uri.TryCreate(baseUrl.Trim(), UriKind.Absolute, out var url) || (url.Scheme != Uri.UriSchemeHttps && url.Scheme != Uri.UriSchemeHttp))
        {
            throw new ArgumentException($"BaseUrl must be an http(s) URL, got \"{baseUrl}\": use {WhereTheUrlIs}", nameof(baseUrl));
        }
        if (url.Scheme == Uri.UriSchemeHttp && !IsLoopback(url))
        {
            throw new ArgumentException(
                $"BaseUrl {url.Scheme}://{url.Authority} is plain http, which would send your API key and secret in clear text: use https ({WhereTheUrlIs}); http is accepted only for loopback (127.0.0.0/8, ::1, localhost)",
                nameof(baseUrl));
        }
        if (url.UserInfo.Length > 0 || baseUrl.Contains('?') || baseUrl.Contains('#'))
        {
            throw new ArgumentException($"BaseUrl must carry no credentials, query or fragment, got \"{(url.UserInfo.Length > 0 ? baseUrl.Replace(url.UserInfo + "@", "…@") : baseUrl)}\"", nameof(baseUrl));
        }
        // The routes carry /v1 themselves: accept a base URL with or without it (ApiUrl has it).
        var normalised = url.GetLeftPart(UriPartial.Path).TrimEnd('/');
        if (normalised.EndsWith("/v1", StringComparison.Ordinal)) normalised = normalised[..^3];
        return normalised;
    }

    private static bool IsLoopback(Uri url)
    {
        if (url.HostNameType == UriHostNameType.Dns) return string.Equals(url.Host, "localhost", StringComparison.OrdinalIgnoreCase);
        return IPAddress.TryParse(url.DnsSafeHost, out var address) && IPAddress.IsLoopback(address) && !address.IsIPv4MappedToIPv6;
    }

    private static string ReadVersion()
    {
        var version = typeof(CambioClient).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion ?? "0.0.0";
        var plus = version.IndexOf('+');
        return plus < 0 ? version : version[..plus];
    }

    internal static string Segment(string id, string name = "id")
    {
        if (string.IsNullOrEmpty(id)) throw new ArgumentException($"{name} must be a non-empty string", name);
        return Uri.EscapeDataString(id);
    }
}

/// <summary>The JSON settings for the API's bodies: the records' own names, strict numbers, nullability as declared.</summary>
internal static class CambioJson
{
    public static readonly JsonSerializerOptions Options = new()
    {
        NumberHandling = JsonNumberHandling.Strict,
#if NET9_0_OR_GREATER
        RespectNullableAnnotations = true,
#endif
    };
}
