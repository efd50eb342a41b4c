using System.Diagnostics;
using System.Text.RegularExpressions;

namespace Cambio.Tests;

/// <summary>
/// Connection failures, timeouts, 409 IDEMPOTENCY_KEY_IN_USE, 429 and 5xx are retried with capped,
/// jittered backoff (or Retry-After); every try of one POST carries the same Idempotency-Key.
/// </summary>
public class RetryTests
{
    private static readonly Regex UuidV4 = new("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");

    [Fact]
    public async Task Status_503_then_201_makes_one_withdrawal_with_the_same_Idempotency_Key_on_both_tries()
    {
        await using var server = new ScriptedServer((_, attempt) =>
            attempt == 1 ? Reply.Failure(503, "INTERNAL_ERROR") : Reply.Json(201, new { success = true, data = Fixtures.Withdrawal }, ("X-Request-Id", "req-2")));
        using var cambio = Fixtures.Client(server.Url);

        var created = await cambio.Withdrawals.CreateAsync(Fixtures.WithdrawalParams());

        Assert.Equal("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5", created.Id);
        Assert.Equal("5.000000", created.Amount);
        var seen = server.Requests;
        Assert.Equal(2, seen.Count);
        Assert.Matches(UuidV4, seen[0].Header("Idempotency-Key"));
        Assert.Equal(seen[0].Header("Idempotency-Key"), seen[1].Header("Idempotency-Key"));
        Assert.Equal(seen[0].Text, seen[1].Text);
    }

    [Fact]
    public async Task A_dropped_connection_is_retried_with_the_same_key_and_a_new_call_gets_a_new_key()
    {
        await using var server = new ScriptedServer((_, attempt) => attempt == 1 ? Reply.Drop : Reply.Json(201, new { success = true, data = Fixtures.Withdrawal }));
        using var cambio = Fixtures.Client(server.Url);

        await cambio.Withdrawals.CreateAsync(Fixtures.WithdrawalParams());
        var first = server.Requests.Select(s => s.Header("Idempotency-Key")).ToList();
        await cambio.Withdrawals.CreateAsync(Fixtures.WithdrawalParams());

        Assert.Equal(2, first.Count);
        Assert.Equal(first[0], first[1]);
        Assert.NotEqual(first[0], server.Requests[^1].Header("Idempotency-Key"));
    }

    [Fact]
    public async Task Status_429_honours_Retry_After_in_seconds()
    {
        await using var server = new ScriptedServer((_, attempt) =>
            attempt == 1 ? Reply.Failure(429, "RATE_LIMITED", headers: ("Retry-After", "1")) : Reply.Ok(Fixtures.Withdrawal));
        using var cambio = Fixtures.Client(server.Url);

        await cambio.Withdrawals.GetAsync("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5");

        var seen = server.Requests;
        Assert.Equal(2, seen.Count);
        Assert.InRange((seen[1].At - seen[0].At).TotalMilliseconds, 950, 5000);
    }

    [Fact]
    public async Task Status_503_honours_Retry_After_as_an_HTTP_date_and_ignores_one_beyond_the_cap()
    {
        await using var server = new ScriptedServer((_, attempt) => attempt switch
        {
            1 => Reply.Failure(503, "PRICE_UNAVAILABLE", headers: ("Retry-After", DateTimeOffset.UtcNow.AddSeconds(2).ToString("r"))),
            2 => Reply.Failure(503, "PRICE_UNAVAILABLE", headers: ("Retry-After", "61")),
            _ => Reply.Ok(Fixtures.Company),
        });
        using var cambio = Fixtures.Client(server.Url);

        var company = await cambio.Company.GetAsync();

        Assert.Equal("Acme", company.Name);
        var seen = server.Requests;
        Assert.Equal(3, seen.Count);
        // The date is whole seconds: between 1 and 2 s away when it is read.
        Assert.InRange((seen[1].At - seen[0].At).TotalMilliseconds, 900, 5000);
        // 61 s is beyond MaxRetryAfter (60 s): the backoff (≤ 20 ms here) is used instead.
        Assert.InRange((seen[2].At - seen[1].At).TotalMilliseconds, 0, 5000);
    }

    [Fact]
    public async Task Status_409_IDEMPOTENCY_KEY_IN_USE_is_retried_with_the_same_key()
    {
        await using var server = new ScriptedServer((_, attempt) =>
            attempt == 1 ? Reply.Failure(409, "IDEMPOTENCY_KEY_IN_USE") : Reply.Json(201, new { success = true, data = Fixtures.Withdrawal }));
        using var cambio = Fixtures.Client(server.Url);

        await cambio.Withdrawals.CreateAsync(Fixtures.WithdrawalParams(), new RequestOptions { IdempotencyKey = "payout-1-try" });

        Assert.Equal(new[] { "payout-1-try", "payout-1-try" }, server.Requests.Select(s => s.Header("Idempotency-Key")));
    }

    [Fact]
    public async Task Other_409s_are_not_retried()
    {
        await using var server = new ScriptedServer(Reply.Failure(409, "DUPLICATE_REFERENCE", "reference used", new { existingId = "wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5" }));
        using var cambio = Fixtures.Client(server.Url);

        var error = await Assert.ThrowsAsync<ConflictException>(() => cambio.Withdrawals.CreateAsync(Fixtures.WithdrawalParams()));

        Assert.Equal("DUPLICATE_REFERENCE", error.Code);
        Assert.Equal("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5", error.Details!.Value.GetProperty("existingId").GetString());
        Assert.Single(server.Requests);
    }

    [Fact]
    public async Task Status_400_is_not_retried()
    {
        await using var server = new ScriptedServer(Reply.Failure(400, "VALIDATION_FAILED", "bad", new[] { new { path = "amount", message = "must be a decimal string" } }));
        using var cambio = Fixtures.Client(server.Url);

        var error = await Assert.ThrowsAsync<InvalidRequestException>(() => cambio.Withdrawals.CreateAsync(Fixtures.WithdrawalParams()));

        Assert.Equal("VALIDATION_FAILED", error.Code);
        Assert.Equal(400, error.StatusCode);
        var field = Assert.Single(error.FieldErrors);
        Assert.Equal(("amount", "must be a decimal string"), (field.Path, field.Message));
        Assert.Single(server.Requests);
    }

    [Fact]
    public async Task Status_422_is_not_retried()
    {
        await using var server = new ScriptedServer(Reply.Failure(422, "INSUFFICIENT_BALANCE", "Insufficient balance", headers: ("X-Request-Id", "req-422")));
        using var cambio = Fixtures.Client(server.Url);

        var error = await Assert.ThrowsAsync<RefusedException>(() => cambio.Withdrawals.CreateAsync(Fixtures.WithdrawalParams()));

        Assert.Equal(("INSUFFICIENT_BALANCE", 422, "req-422"), (error.Code, error.StatusCode, error.RequestId));
        Assert.Single(server.Requests);
    }

    [Fact]
    public async Task Gives_up_after_MaxRetries_with_the_last_error_typed_and_backs_off_within_the_cap()
    {
        await using var server = new ScriptedServer((_, attempt) =>
            Reply.Failure(503, "PRICE_UNAVAILABLE", "No current USDT/BRL price", headers: ("X-Request-Id", $"req-{attempt}")));
        using var cambio = new CambioClient(new CambioClientOptions
        {
            ApiKey = "ck_test_k",
            ApiSecret = "cs_test_s",
            BaseUrl = server.Url,
            MaxRetries = 3,
            InitialRetryDelay = TimeSpan.FromMilliseconds(40),
            MaxRetryDelay = TimeSpan.FromMilliseconds(80),
        });

        var error = await Assert.ThrowsAsync<ApiServerException>(() =>
            cambio.Conversions.QuoteAsync(new ConversionQuoteOptions { SourceAmount = "10" }));

        Assert.Equal(("PRICE_UNAVAILABLE", 503, "req-4"), (error.Code, error.StatusCode, error.RequestId));
        var seen = server.Requests;
        Assert.Equal(4, seen.Count);
        Assert.Single(seen.Select(s => s.Header("Idempotency-Key")).Distinct());
        // Try n waits at least half of min(80, 40 × 2^n) ms: 20, 40, 40 (a busy machine only makes it longer;
        // the cap itself is checked without a clock below).
        var waits = seen.Skip(1).Select((s, i) => (s.At - seen[i].At).TotalMilliseconds).ToList();
        Assert.All(waits.Zip(new[] { 20, 40, 40 }), pair => Assert.InRange(pair.First, pair.Second - 5, 5000));
    }

    [Fact]
    public void The_default_backoff_is_half_to_all_of_half_a_second_doubling_capped_at_five_seconds()
    {
        var defaults = new CambioClientOptions();
        var ceilings = new[] { 500, 1000, 2000, 4000, 5000, 5000, 5000 };
        for (var attempt = 0; attempt < ceilings.Length; attempt++)
        {
            Assert.Equal(ceilings[attempt] / 2.0, CambioClient.Backoff(attempt, defaults.InitialRetryDelay, defaults.MaxRetryDelay, 0).TotalMilliseconds, 3);
            Assert.Equal(ceilings[attempt], CambioClient.Backoff(attempt, defaults.InitialRetryDelay, defaults.MaxRetryDelay, 1).TotalMilliseconds, 3);
        }
        Assert.Equal(5000, CambioClient.Backoff(1000, defaults.InitialRetryDelay, defaults.MaxRetryDelay, 1).TotalMilliseconds, 3);
        Assert.Equal(TimeSpan.FromSeconds(60), defaults.MaxRetryAfter);
    }

    [Fact]
    public async Task Per_request_MaxRetries_overrides_the_client()
    {
        await using var server = new ScriptedServer(Reply.Failure(500, "INTERNAL_ERROR"));
        using var cambio = Fixtures.Client(server.Url, maxRetries: 2);

        await Assert.ThrowsAsync<ApiServerException>(() => cambio.Company.GetAsync(new RequestOptions { MaxRetries = 0 }));

        Assert.Single(server.Requests);
    }

    [Fact]
    public async Task A_429_that_persists_surfaces_as_RateLimitException()
    {
        await using var server = new ScriptedServer(Reply.Failure(429, "RATE_LIMITED"));
        using var cambio = Fixtures.Client(server.Url, maxRetries: 1);

        var error = await Assert.ThrowsAsync<RateLimitException>(() => cambio.Company.GetAsync());

        Assert.Equal(("RATE_LIMITED", 429), (error.Code, error.StatusCode));
        Assert.Equal(2, server.Requests.Count);
    }

    [Fact]
    public async Task Connection_refused_is_retried_then_a_ConnectionException_CONNECTION_FAILED()
    {
        using var cambio = Fixtures.Client($"http://127.0.0.1:{ScriptedServer.ClosedPort()}", maxRetries: 1);
        var clock = Stopwatch.StartNew();

        var error = await Assert.ThrowsAsync<ConnectionException>(() => cambio.Company.GetAsync());

        Assert.Equal("CONNECTION_FAILED", error.Code);
        Assert.Null(error.StatusCode);
        Assert.Null(error.RequestId);
        Assert.IsType<System.Net.Http.HttpRequestException>(error.InnerException);
        Assert.True(clock.ElapsedMilliseconds < 5000);
    }

    [Fact]
    public async Task A_try_that_never_answers_times_out_and_is_retried_then_a_ConnectionException_TIMEOUT()
    {
        await using var server = new ScriptedServer(Reply.Hang);
        using var cambio = Fixtures.Client(server.Url, maxRetries: 1, timeout: TimeSpan.FromMilliseconds(200));

        var error = await Assert.ThrowsAsync<ConnectionException>(() => cambio.Company.GetAsync());

        Assert.Equal("TIMEOUT", error.Code);
        Assert.Contains("No answer within 200 ms", error.Message);
        Assert.Equal(2, server.Requests.Count);
    }

    [Fact]
    public async Task The_callers_cancellation_is_not_a_timeout_and_is_not_retried()
    {
        // Cancelled once the first try has reached the server, not on a clock: on a busy machine a
        // fixed 150 ms could end before the try was sent at all.
        using var cancel = new CancellationTokenSource();
        await using var server = new ScriptedServer((_, _) =>
        {
            cancel.CancelAfter(TimeSpan.FromMilliseconds(50));
            return Reply.Hang;
        });
        using var cambio = Fixtures.Client(server.Url, maxRetries: 3);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cambio.Company.GetAsync(cancellationToken: cancel.Token));

        Assert.Single(server.Requests);
    }

    public static TheoryData<string, string> RateLimitsWithoutTheEnvelope() => new()
    {
        { "text/plain", "Too Many Requests" },
        { "text/html", "<html><body><h1>429 Too Many Requests</h1></body></html>" },
        { "application/json", "{\"message\":\"Too Many Requests\"}" },
    };

    /// <summary>A CDN's, WAF's or proxy's 429 (no error envelope) is a rate limit too: retried, Retry-After honoured,
    /// RateLimitException at the end.</summary>
    [Theory]
    [MemberData(nameof(RateLimitsWithoutTheEnvelope))]
    public async Task A_429_without_the_envelope_is_a_RateLimitException_retried_as_one(string contentType, string body)
    {
        await using var server = new ScriptedServer((_, attempt) =>
            attempt == 1 ? Reply.Raw(429, contentType, body, ("Retry-After", "1")) : Reply.Ok(Fixtures.Withdrawal));
        using var cambio = Fixtures.Client(server.Url);

        await cambio.Withdrawals.GetAsync("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5");

        var seen = server.Requests;
        Assert.Equal(2, seen.Count);
        Assert.InRange((seen[1].At - seen[0].At).TotalMilliseconds, 950, 5000);

        await using var limited = new ScriptedServer(Reply.Raw(429, contentType, body, ("X-Request-Id", "req-429")));
        using var failing = Fixtures.Client(limited.Url, maxRetries: 1);
        var error = await Assert.ThrowsAsync<RateLimitException>(() => failing.Company.GetAsync());
        Assert.Equal(("RATE_LIMITED", 429, "req-429"), (error.Code, error.StatusCode, error.RequestId));
        Assert.Equal(2, limited.Requests.Count);
    }

    [Fact]
    public async Task A_JSON_5xx_without_the_envelope_is_an_ApiServerException_and_retried()
    {
        await using var server = new ScriptedServer((_, attempt) =>
            attempt == 1 ? Reply.Json(504, new { message = "Gateway Timeout" }) : Reply.Ok(Fixtures.Company));
        using var cambio = Fixtures.Client(server.Url);

        await cambio.Company.GetAsync();
        Assert.Equal(2, server.Requests.Count);

        await using var down = new ScriptedServer(Reply.Json(503, new { message = "Service Unavailable" }));
        using var failing = Fixtures.Client(down.Url, maxRetries: 1);
        var error = await Assert.ThrowsAsync<ApiServerException>(() => failing.Company.GetAsync());
        Assert.Equal(("INTERNAL_ERROR", 503), (error.Code, error.StatusCode));
        Assert.Equal(2, down.Requests.Count);
    }

    private const string WebhookId = "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5";

    public static TheoryData<string> LostDeleteAnswers() => new() { "503", "502 page", "dropped", "timeout" };

    private static Reply Lost(string how) => how switch
    {
        "503" => Reply.Failure(503, "INTERNAL_ERROR"),
        "502 page" => Reply.Raw(502, "text/html", "<html>Bad Gateway</html>"),
        "dropped" => Reply.Drop,
        _ => Reply.Hang,
    };

    /// <summary>A DELETE whose answer was lost (a 5xx, a dropped connection, a timeout) is retried; the webhook is gone by
    /// then, so the retry gets 404. That is the deletion asked for, answered as the first try would have been.</summary>
    [Theory]
    [MemberData(nameof(LostDeleteAnswers))]
    public async Task A_DELETE_retried_after_a_lost_answer_and_answered_404_is_deleted(string how)
    {
        await using var server = new ScriptedServer((_, attempt) => attempt == 1 ? Lost(how) : Reply.Failure(404, "NOT_FOUND", "Webhook not found"));
        using var cambio = Fixtures.Client(server.Url, timeout: how == "timeout" ? TimeSpan.FromMilliseconds(300) : null);

        var deleted = await cambio.Webhooks.DeleteAsync(WebhookId);

        Assert.Equal(WebhookId, deleted.Id);
        Assert.True(deleted.Deleted);
        Assert.Equal(new[] { "DELETE", "DELETE" }, server.Requests.Select(s => s.Method));
    }

    /// <summary>A DELETE whose first try never reached the API (the connection refused, as by a port closed for a moment,
    /// or its host not found) deleted nothing: a 404 to its retry is the webhook's own answer, never "deleted".</summary>
    [Fact]
    public async Task A_DELETE_whose_first_try_was_refused_before_connecting_then_answered_404_is_NotFound()
    {
        var port = ScriptedServer.ClosedPort();
        ScriptedServer? server = null;
        // Nothing listens on the port for the first try; once it is refused, the API opens there, well within the
        // backoff, and answers the retry 404.
        using var http = new HttpClient(new OpensOnFailure(() => server ??= new ScriptedServer(port, (_, _) => Reply.Failure(404, "NOT_FOUND", "Webhook not found")))
        {
            InnerHandler = new SocketsHttpHandler { AllowAutoRedirect = false },
        });
        try
        {
            using var cambio = new CambioClient(new CambioClientOptions
            {
                ApiKey = "ck_test_key", ApiSecret = "cs_test_SECRET_value", BaseUrl = $"http://127.0.0.1:{port}", HttpClient = http,
                InitialRetryDelay = TimeSpan.FromMilliseconds(5), MaxRetryDelay = TimeSpan.FromMilliseconds(20),
            });

            var error = await Assert.ThrowsAsync<NotFoundException>(() => cambio.Webhooks.DeleteAsync(WebhookId));

            Assert.Equal(("NOT_FOUND", 404), (error.Code, error.StatusCode));
            Assert.Equal(new[] { "DELETE" }, server!.Requests.Select(s => s.Method));
        }
        finally
        {
            if (server is not null) await server.DisposeAsync();
        }
    }

    /// <summary>Runs an action when a try fails, before the client sees the failure.</summary>
    private sealed class OpensOnFailure(Action onFailure) : DelegatingHandler
    {
        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            try
            {
                return await base.SendAsync(request, cancellationToken);
            }
            catch (HttpRequestException)
            {
                onFailure();
                throw;
            }
        }
    }

    [Fact]
    public async Task A_DELETE_answered_404_to_its_first_try_is_NotFound()
    {
        await using var server = new ScriptedServer((_, attempt) =>
            attempt == 1 ? Reply.Failure(404, "NOT_FOUND", "Webhook not found") : Reply.Ok(new { id = WebhookId, deleted = true }));
        using var cambio = Fixtures.Client(server.Url);
        var error = await Assert.ThrowsAsync<NotFoundException>(() => cambio.Webhooks.DeleteAsync(WebhookId));
        Assert.Equal(("NOT_FOUND", 404), (error.Code, error.StatusCode));
        Assert.Single(server.Requests);

        // A 429 did nothing: the 404 after it is the webhook's own answer.
        await using var limited = new ScriptedServer((_, attempt) =>
            attempt == 1 ? Reply.Failure(429, "RATE_LIMITED", headers: ("Retry-After", "0")) : Reply.Failure(404, "NOT_FOUND", "Webhook not found"));
        using var afterLimit = Fixtures.Client(limited.Url);
        await Assert.ThrowsAsync<NotFoundException>(() => afterLimit.Webhooks.DeleteAsync(WebhookId));
        Assert.Equal(2, limited.Requests.Count);

        // Only a DELETE: a GET retried into a 404 is NotFound.
        await using var flaky = new ScriptedServer((_, attempt) => attempt == 1 ? Reply.Failure(503, "INTERNAL_ERROR") : Reply.Failure(404, "NOT_FOUND"));
        using var getter = Fixtures.Client(flaky.Url);
        await Assert.ThrowsAsync<NotFoundException>(() => getter.Webhooks.GetAsync(WebhookId));
    }

    [Fact]
    public async Task A_non_JSON_5xx_is_an_ApiServerException_and_retried()
    {
        await using var server = new ScriptedServer((_, attempt) =>
            attempt == 1 ? Reply.Raw(502, "text/html", "<html>Bad Gateway</html>") : Reply.Ok(Fixtures.Company));
        using var cambio = Fixtures.Client(server.Url);

        var company = await cambio.Company.GetAsync();

        Assert.Equal("cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5", company.Id);
        Assert.Equal(2, server.Requests.Count);

        await using var broken = new ScriptedServer(Reply.Raw(502, "text/html", "<html>Bad Gateway</html>", ("X-Request-Id", "req-502")));
        using var failing = Fixtures.Client(broken.Url, maxRetries: 1);
        var error = await Assert.ThrowsAsync<ApiServerException>(() => failing.Company.GetAsync());
        Assert.Equal(("INTERNAL_ERROR", 502, "req-502"), (error.Code, error.StatusCode, error.RequestId));
        Assert.Equal(2, broken.Requests.Count);
    }
}
