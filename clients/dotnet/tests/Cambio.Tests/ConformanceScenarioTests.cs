using System.Text;
using System.Text.Json;

namespace Cambio.Tests;

/// <summary>A fact that runs only against a live runtime (CAMBIO_API_URL set, as the bridge does); skipped otherwise.</summary>
public sealed class LiveFactAttribute : FactAttribute
{
    public LiveFactAttribute()
    {
        if (string.IsNullOrEmpty(Environment.GetEnvironmentVariable("CAMBIO_API_URL")))
        {
            Skip = "CAMBIO_API_URL is unset: the live conformance scenario runs from `npx vitest run test/clients/dotnet.test.ts`";
        }
    }
}

/// <summary>clients/conformance/scenario.md with the .NET client's public surface, step by step (as clients/node/test/conformance-scenario.ts).</summary>
public class ConformanceScenarioTests
{
    private const string PayoutAddress = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui";

    private static string Env(string name) =>
        Environment.GetEnvironmentVariable(name) is { Length: > 0 } value ? value : throw new InvalidOperationException($"{name} is unset");

    [LiveFact]
    public async Task Scenario()
    {
        // 0. construct, and a receiver that keeps the raw bytes
        using var cambio = new CambioClient(new CambioClientOptions { ApiKey = Env("CAMBIO_API_KEY"), ApiSecret = Env("CAMBIO_API_SECRET"), BaseUrl = Env("CAMBIO_API_URL") });
        await using var receiver = new ScriptedServer(Reply.Raw(204, "text/plain", ""));
        using var http = new HttpClient();

        // 1. company
        var (company, balance) = await Step("1. company", async () => (await cambio.Company.GetAsync(), await cambio.Company.GetBalanceAsync()));
        Step("1. company", () =>
        {
            Assert.Equal("sandbox", company.Environment);
            Assert.StartsWith("cmp_", company.Id);
            // A new company is at the standard tier; its figures are the stage's, whatever they are.
            Assert.Equal("standard", company.RateLimit.Tier);
            Assert.True(company.RateLimit.RequestsPerSecond > 0, $"{company.RateLimit}");
            Assert.True(company.RateLimit.Burst >= company.RateLimit.RequestsPerSecond, $"{company.RateLimit}");
            Assert.Equal(new[] { "BRL", "USDT" }, balance.Balances.Select(b => b.Currency).Order());
            Assert.All(balance.Balances, b => Assert.All(new[] { b.Available, b.Pending, b.Locked }, amount => Assert.Matches(@"^\d+\.\d+$", amount)));
        });

        // 2. webhook created
        var url = $"http://127.0.0.1:{receiver.Port}/hooks";
        var webhook = await Step("2. webhook created", () => cambio.Webhooks.CreateAsync(new WebhookOptions { Url = url, Events = ["*"] }));
        Step("2. webhook created", () =>
        {
            Assert.StartsWith("whk_", webhook.Id);
            Assert.StartsWith("whsec_", webhook.Secret);
        });

        // 3. deposit paid and completed
        var deposit = await Step("3. deposit paid and completed", async () =>
        {
            var created = await cambio.Deposits.CreateAsync(new DepositCreateOptions { Method = "usdt", Network = "tron", Reference = $"conformance-{Guid.NewGuid()}", Amount = "25" });
            Assert.Equal(("awaiting_payment", "25.000000"), (created.Status, created.Amount));
            Assert.False(string.IsNullOrEmpty(created.Address));
            using var paid = await http.PostAsync(Env("CAMBIO_SANDBOX_PAY_URL"), new StringContent(JsonSerializer.Serialize(new { address = created.Address, amount = "25" }), Encoding.UTF8, "application/json"));
            Assert.Equal(200, (int)paid.StatusCode);
            var completed = await Until(() => cambio.Deposits.GetAsync(created.Id), d => d.Status == "completed", TimeSpan.FromSeconds(60));
            Assert.Equal(("25.000000", "25.000000"), (completed.CreditedAmount, completed.ReceivedAmount));
            return completed;
        });

        // 4. delivery verified
        await Step("4. delivery verified", async () =>
        {
            var delivery = await Until(
                () => Task.FromResult(receiver.Requests.FirstOrDefault(d =>
                {
                    try
                    {
                        var e = cambio.Webhooks.Verify(d.Body, (IDictionary<string, string>)d.Headers.ToDictionary(h => h.Key, h => h.Value), webhook.Secret);
                        return e.Type == "deposit.completed" && e.Data.GetProperty("id").GetString() == deposit.Id;
                    }
                    catch (WebhookVerificationException)
                    {
                        return false;
                    }
                })),
                found => found is not null,
                TimeSpan.FromSeconds(30));
            var headers = delivery!.Headers.ToDictionary(h => h.Key, h => h.Value);
            var verified = cambio.Webhooks.Verify(delivery.Body, headers, webhook.Secret);
            Assert.Equal(deposit.Id, verified.DataAs<Deposit>().Id);
            var tampered = delivery.Body.ToArray();
            tampered[^2] ^= 1;
            Assert.Throws<WebhookVerificationException>(() => cambio.Webhooks.Verify(tampered, headers, webhook.Secret));
        });

        // 5. conversion
        var (quote, conversion) = await Step("5. conversion", async () =>
        {
            var q = await cambio.Conversions.QuoteAsync(new ConversionQuoteOptions { SourceCurrency = "USDT", SettlementCurrency = "BRL", SourceAmount = "10" });
            Assert.StartsWith("qte_", q.Id);
            Assert.Matches(@"^\d+\.\d{2}$", q.SettlementAmount);
            var c = await cambio.Conversions.CreateAsync(new ConversionCreateOptions { QuoteId = q.Id });
            Assert.Equal(("completed", q.SettlementAmount), (c.Status, c.SettlementAmount));
            return (q, c);
        });

        // 6. idempotent replay
        var first = await Step("6. idempotent replay", async () =>
        {
            var second = await cambio.Conversions.QuoteAsync(new ConversionQuoteOptions { SourceCurrency = "USDT", SettlementCurrency = "BRL", SourceAmount = 1m });
            var key = new RequestOptions { IdempotencyKey = $"conformance-{Guid.NewGuid()}" };
            var once = await cambio.Conversions.CreateAsync(new ConversionCreateOptions { QuoteId = second.Id }, key);
            var replayed = await cambio.Conversions.CreateAsync(new ConversionCreateOptions { QuoteId = second.Id }, key);
            Assert.Equal(once.Id, replayed.Id);
            var usdt = (await cambio.Company.GetBalanceAsync()).Balances.Single(b => b.Currency == "USDT");
            Assert.Equal("14.000000", usdt.Available);
            return once;
        });

        // 7. pagination
        await Step("7. pagination", async () =>
        {
            var page = await cambio.Conversions.ListAsync(new ListOptions { Limit = 1 });
            Assert.Single(page.Data);
            Assert.False(string.IsNullOrEmpty(page.NextCursor));
            var walked = new List<string>();
            await foreach (var each in cambio.Conversions.ListAutoPagingAsync(new ListOptions { Limit = 1 })) walked.Add(each.Id);
            Assert.Equal(new[] { first.Id, conversion.Id }, walked);
        });

        // 8. refused
        await Step("8. refused", async () =>
        {
            var refused = await Assert.ThrowsAsync<RefusedException>(() => cambio.Withdrawals.CreateAsync(new WithdrawalCreateOptions
            {
                Method = "usdt", Network = "tron", Address = PayoutAddress, Amount = "1000", Reference = $"conformance-{Guid.NewGuid()}",
            }));
            Assert.Equal(("INSUFFICIENT_BALANCE", 422), (refused.Code, refused.StatusCode));
            Assert.False(string.IsNullOrEmpty(refused.RequestId));
        });

        // 9. authentication
        await Step("9. authentication", async () =>
        {
            using var wrong = new CambioClient(new CambioClientOptions { ApiKey = Env("CAMBIO_API_KEY"), ApiSecret = "not-the-secret", BaseUrl = Env("CAMBIO_API_URL") });
            var refused = await Assert.ThrowsAsync<AuthenticationException>(() => wrong.Company.GetAsync());
            Assert.Equal(("AUTH_FAILED", 401), (refused.Code, refused.StatusCode));
        });

        // 10. not found
        await Step("10. not found", async () =>
        {
            var missing = await Assert.ThrowsAsync<NotFoundException>(() => cambio.Deposits.GetAsync("dep_00000000000000000000000000"));
            Assert.Equal(("NOT_FOUND", 404), (missing.Code, missing.StatusCode));
        });

        // 11. webhook managed
        await Step("11. webhook managed", async () =>
        {
            var updated = await cambio.Webhooks.UpdateAsync(webhook.Id, new WebhookOptions { Url = url, Events = ["deposit.completed"] });
            Assert.Equal(new[] { "deposit.completed" }, updated.Events);
            Assert.Equal(new[] { "deposit.completed" }, (await cambio.Webhooks.GetAsync(webhook.Id)).Events);
            Assert.Contains(webhook.Id, (await cambio.Webhooks.ListAsync()).Data.Select(w => w.Id));
            var deleted = await cambio.Webhooks.DeleteAsync(webhook.Id);
            Assert.Equal((webhook.Id, true), (deleted.Id, deleted.Deleted));
            await Assert.ThrowsAsync<NotFoundException>(() => cambio.Webhooks.GetAsync(webhook.Id));
        });
        _ = quote;
    }

    /// <summary>Runs one step; a failure names the step.</summary>
    private static async Task<T> Step<T>(string name, Func<Task<T>> step)
    {
        try
        {
            return await step();
        }
        catch (Exception error)
        {
            throw new Xunit.Sdk.XunitException($"scenario step {name} failed: {error.GetType().Name}: {error.Message}\n{error.StackTrace}");
        }
    }

    private static Task Step(string name, Func<Task> step) => Step(name, async () => { await step(); return true; });

    private static void Step(string name, Action step) => Step(name, () => { step(); return Task.FromResult(true); }).GetAwaiter().GetResult();

    private static async Task<T> Until<T>(Func<Task<T>> read, Func<T, bool> done, TimeSpan timeout)
    {
        var deadline = DateTimeOffset.UtcNow + timeout;
        for (;;)
        {
            var value = await read();
            if (done(value)) return value;
            if (DateTimeOffset.UtcNow > deadline) throw new TimeoutException($"not reached within {timeout.TotalSeconds} s; last: {JsonSerializer.Serialize(value)}");
            await Task.Delay(250);
        }
    }
}
