using System.Text.Json;
using System.Text.Json.Nodes;

namespace Cambio.Tests;

/// <summary>What goes on the wire: routes, headers, bodies with decimal strings, and one client shared by concurrent tasks.</summary>
public class RequestTests
{
    [Fact]
    public async Task Requests_go_under_the_base_URLs_path_with_the_key_secret_user_agent_and_no_idempotency_key_on_GET()
    {
        await using var server = new ScriptedServer(Reply.Ok(new { balances = Array.Empty<object>(), updatedAt = "2026-01-15T12:00:00.000Z" }));
        using var cambio = new CambioClient(new CambioClientOptions { ApiKey = "ck_live_k", ApiSecret = "cs_live_s", BaseUrl = server.Url + "/sandbox/v1" });

        var balance = await cambio.Company.GetBalanceAsync();

        Assert.Empty(balance.Balances);
        var seen = Assert.Single(server.Requests);
        Assert.Equal(("GET", "/sandbox/v1/company/balance"), (seen.Method, seen.Target));
        Assert.Equal("ck_live_k", seen.Header("X-Api-Key"));
        Assert.Equal("cs_live_s", seen.Header("X-Api-Secret"));
        Assert.Equal("application/json", seen.Header("Accept"));
        Assert.Equal($"cambio-dotnet/{CambioClient.Version} dotnet/{Environment.Version}", seen.Header("User-Agent"));
        Assert.Null(seen.Header("Idempotency-Key"));
    }

    [Fact]
    public async Task The_company_carries_its_rate_limit_and_a_tier_added_later_reads_as_its_string()
    {
        var enterprise = JsonNode.Parse(Fixtures.Company.GetRawText())!;
        enterprise["rateLimit"] = new JsonObject { ["tier"] = "enterprise", ["requestsPerSecond"] = 500, ["burst"] = 1000 };
        await using var server = new ScriptedServer((_, attempt) => Reply.Ok(attempt == 1 ? Fixtures.Company : (object)enterprise));
        using var cambio = Fixtures.Client(server.Url);

        Assert.Equal(new RateLimit { Tier = "standard", RequestsPerSecond = 10, Burst = 20 }, (await cambio.Company.GetAsync()).RateLimit);
        Assert.Equal(new RateLimit { Tier = "enterprise", RequestsPerSecond = 500, Burst = 1000 }, (await cambio.Company.GetAsync()).RateLimit);
    }

    [Fact]
    public void The_version_is_the_packages_one()
    {
        var csproj = System.IO.File.ReadAllText(System.IO.Path.Combine(Fixtures.ClientDir, "src", "Cambio", "Cambio.csproj"));
        Assert.Contains($"<Version>{CambioClient.Version}</Version>", csproj);
        Assert.Equal(System.IO.File.ReadAllText(System.IO.Path.Combine(Fixtures.ClientDir, "..", "VERSION")).Trim(), CambioClient.Version);
        Assert.Equal($"cambio-dotnet/{CambioClient.Version} dotnet/{Environment.Version}", CambioClient.UserAgent);
    }

    [Fact]
    public async Task A_deposit_is_POSTed_as_JSON_with_decimal_strings_and_the_method_default()
    {
        var deposit = new
        {
            id = "dep_01JBZ6W1V7Q8R9S0T1U2V3W4X5", method = "usdt", reference = "order-1", network = "tron",
            address = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", amount = "25.500000", receivedAmount = "0.000000", creditedAmount = "0.000000",
            amountStatus = (string?)null, status = "awaiting_payment", holdReason = (string?)null, confirmations = 0, requiredConfirmations = 19,
            transactions = Array.Empty<object>(), split = (object?)null,
            expiresAt = "2026-01-16T12:00:00.000Z", createdAt = "2026-01-15T12:00:00.000Z", updatedAt = "2026-01-15T12:00:00.000Z",
        };
        await using var server = new ScriptedServer(Reply.Json(201, new { success = true, data = deposit }));
        using var cambio = Fixtures.Client(server.Url);

        var created = await cambio.Deposits.CreateAsync(new DepositCreateOptions { Network = "tron", Reference = "order-1", Amount = 25.50m });
        await cambio.Deposits.CreateAsync(new DepositCreateOptions
        {
            Method = "usdt", Network = "tron", Reference = "order-2", Amount = "25",
            Split = new DepositSplitOptions { Address = "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", Percent = 12.5m },
        });

        Assert.Equal(("25.500000", null, "awaiting_payment"), (created.Amount, created.AmountStatus, created.Status));
        Assert.Equal(new DateTimeOffset(2026, 1, 16, 12, 0, 0, TimeSpan.Zero), created.ExpiresAt);
        var seen = server.Requests;
        Assert.Equal(("POST", "/v1/deposits"), (seen[0].Method, seen[0].Target));
        Assert.StartsWith("application/json", seen[0].Header("Content-Type"));
        Assert.Equal("""{"method":"usdt","reference":"order-1","network":"tron","amount":"25.5"}""", seen[0].Text);
        Assert.Equal("""{"method":"usdt","reference":"order-2","network":"tron","amount":"25","split":{"address":"TJRabPrwbZy45sbavfcjinPJC18kjpRTv8","percent":12.5}}""", seen[1].Text);
    }

    [Fact]
    public async Task A_withdrawal_is_POSTed_on_the_network_named()
    {
        await using var server = new ScriptedServer(Reply.Json(201, new { success = true, data = Fixtures.Withdrawal }));
        using var cambio = Fixtures.Client(server.Url);

        var pending = await cambio.Withdrawals.CreateAsync(new WithdrawalCreateOptions { Network = "tron", Address = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui", Amount = "5", Reference = "payout-1" });
        Assert.Null(pending.NetworkCost);
        await cambio.Withdrawals.CreateAsync(new WithdrawalCreateOptions
        {
            Network = "ethereum", Address = "0x52908400098527886E0F7030069857D2E4169EE7", Amount = 5m, Reference = "payout-2",
        });

        var seen = server.Requests;
        Assert.Equal("""{"method":"usdt","network":"tron","address":"TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui","amount":"5","reference":"payout-1"}""", seen[0].Text);
        Assert.Equal("""{"method":"usdt","network":"ethereum","address":"0x52908400098527886E0F7030069857D2E4169EE7","amount":"5","reference":"payout-2"}""", seen[1].Text);
    }

    [Fact]
    public async Task A_decimal_amount_is_sent_without_the_trailing_zeros_of_its_scale()
    {
        // A NUMERIC(20,8) column reads 25 back as 25.00000000m; the API refuses more than 6 decimals, zeros included.
        await using var server = new ScriptedServer(Reply.Json(201, new { success = true, data = Fixtures.Withdrawal }));
        using var cambio = Fixtures.Client(server.Url);

        foreach (var amount in new[] { 25.00000000m, 12.50000000m })
        {
            await cambio.Withdrawals.CreateAsync(new WithdrawalCreateOptions { Network = "tron", Address = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui", Amount = amount, Reference = "payout-1" });
        }

        Assert.Equal(new[] { "25", "12.5" }, server.Requests.Select(r => JsonDocument.Parse(r.Body).RootElement.GetProperty("amount").GetString()));
        // Only zeros go: a real 7th decimal is sent as it is (the API refuses it), and a whole number keeps its own zeros.
        Assert.Equal(
            new[] { "100", "0.0000001", "25.1234567", "0", "10" },
            new[] { 100m, 0.00000010m, 25.12345670m, 0.00000000m, 10.000m }.Select(d => new DecimalString(d).Value));
    }

    [Theory]
    [InlineData(typeof(DepositCreateOptions), "CreateDepositRequest")]
    [InlineData(typeof(WithdrawalCreateOptions), "CreateWithdrawalRequest")]
    public void Network_is_a_required_member_with_no_default_so_options_without_it_do_not_compile(Type options, string schema)
    {
        // C# refuses `new DepositCreateOptions { Reference = "order-1" }` at compile time (CS9035) because
        // Network carries RequiredMemberAttribute, so no request without a network can be sent.
        static bool IsRequired(System.Reflection.MemberInfo member) =>
            member.CustomAttributes.Any(a => a.AttributeType.FullName == "System.Runtime.CompilerServices.RequiredMemberAttribute");
        var network = options.GetProperty("Network")!;
        Assert.True(IsRequired(network), $"{options.Name}.Network is not a required member");
        Assert.True(IsRequired(options.GetProperty("Reference")!));
        Assert.False(IsRequired(options.GetProperty("Method")!)); // always usdt, the default
        // No constructor lets an initializer skip the required members.
        Assert.All(options.GetConstructors(), c => Assert.DoesNotContain(c.CustomAttributes,
            a => a.AttributeType.FullName == "System.Diagnostics.CodeAnalysis.SetsRequiredMembersAttribute"));
        // And no "tron" default hides behind it: built without the compiler's check, Network is unset.
        var instance = Activator.CreateInstance(options)!;
        Assert.Null(network.GetValue(instance));
        Assert.Equal("usdt", options.GetProperty("Method")!.GetValue(instance));

        // The required members are exactly what openapi.json requires, but the constant method.
        using var document = JsonDocument.Parse(File.ReadAllText(Fixtures.OpenApiPath));
        var request = document.RootElement.GetProperty("components").GetProperty("schemas").GetProperty(schema);
        var expected = request.GetProperty("required").EnumerateArray().Select(r => r.GetString()!)
            .Where(name => !request.GetProperty("properties").GetProperty(name).TryGetProperty("const", out _))
            .OrderBy(name => name, StringComparer.Ordinal);
        var actual = options.GetProperties().Where(IsRequired)
            .Select(p => ((System.Text.Json.Serialization.JsonPropertyNameAttribute)Attribute.GetCustomAttribute(p, typeof(System.Text.Json.Serialization.JsonPropertyNameAttribute))!).Name)
            .OrderBy(name => name, StringComparer.Ordinal);
        Assert.Equal(expected, actual);
        Assert.Contains("network", actual);
    }

    /// <summary>A Solana wallet (32 bytes on the Ed25519 curve, base58) and a transaction signature (64 bytes, base58).</summary>
    private const string SolanaWallet = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    private const string SolanaSignature = "4fEUp7Zfx1DabEhfjTffrP21NsHSvE1xAoiUWUkTXxbKC2Q2EZE1QMCc9QZQzvibS8tUfTacRNw6UFN3jFMfh5uQ";

    [Fact]
    public async Task A_withdrawal_on_solana_is_sent_naming_it_and_its_record_reads_back()
    {
        var completed = JsonNode.Parse(Fixtures.Withdrawal.GetRawText())!;
        completed["network"] = "solana";
        completed["address"] = SolanaWallet;
        completed["status"] = "completed";
        completed["txHash"] = SolanaSignature;
        completed["deliveredAmount"] = "5.000000";
        completed["networkCost"] = new JsonObject { ["asset"] = "SOL", ["amount"] = "0.002044280", ["tokenAccountCreated"] = true };
        completed["completedAt"] = "2026-01-15T12:00:05.000Z";
        await using var server = new ScriptedServer(Reply.Json(201, new { success = true, data = completed }));
        using var cambio = Fixtures.Client(server.Url);

        var withdrawal = await cambio.Withdrawals.CreateAsync(new WithdrawalCreateOptions { Network = "solana", Address = SolanaWallet, Amount = "5", Reference = "payout-1" });

        Assert.Equal($$"""{"method":"usdt","network":"solana","address":"{{SolanaWallet}}","amount":"5","reference":"payout-1"}""", server.Requests[0].Text);
        Assert.Equal(("solana", SolanaWallet, SolanaSignature, "5.000000"), (withdrawal.Network, withdrawal.Address, withdrawal.TxHash, withdrawal.DeliveredAmount));
        // What the payout cost Cambio in SOL: the API's decimal string, never a double.
        Assert.Equal(new WithdrawalNetworkCost { Asset = "SOL", Amount = "0.002044280", TokenAccountCreated = true }, withdrawal.NetworkCost);
    }

    [Fact]
    public async Task Every_route_uses_its_method_and_path_with_ids_escaped()
    {
        var webhook = new { id = "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5", url = "https://example.com/hooks", events = new[] { "*" }, description = (string?)null, enabled = true, createdAt = "2026-01-15T12:00:00.000Z", updatedAt = "2026-01-15T12:00:00.000Z" };
        await using var server = new ScriptedServer((seen, _) => (seen.Method, seen.Target) switch
        {
            ("DELETE", _) => Reply.Ok(new { id = webhook.id, deleted = true }),
            (_, "/v1/webhooks") when seen.Method == "GET" => Json.Page(new[] { webhook }, null),
            (_, var target) when target.StartsWith("/v1/webhooks") => Reply.Ok(webhook),
            _ => Reply.Ok(Fixtures.Withdrawal),
        });
        using var cambio = Fixtures.Client(server.Url);

        await cambio.Withdrawals.GetAsync("wdr_1/../x?y");
        var updated = await cambio.Webhooks.UpdateAsync(webhook.id, new WebhookOptions { Url = webhook.url, Events = ["deposit.completed"], Enabled = false });
        var deleted = await cambio.Webhooks.DeleteAsync(webhook.id);
        var got = await cambio.Webhooks.GetAsync(webhook.id);
        var listed = await cambio.Webhooks.ListAsync();

        Assert.Equal(["*"], updated.Events);
        Assert.True(deleted.Deleted);
        Assert.Equal(webhook.id, got.Id);
        Assert.Equal(webhook.id, Assert.Single(listed.Data).Id);
        Assert.Null(listed.NextCursor);
        Assert.Equal(
            new[] { "GET /v1/withdrawals/wdr_1%2F..%2Fx%3Fy", $"PUT /v1/webhooks/{webhook.id}", $"DELETE /v1/webhooks/{webhook.id}", $"GET /v1/webhooks/{webhook.id}", "GET /v1/webhooks" },
            server.Requests.Select(s => $"{s.Method} {s.Target}"));
        Assert.Equal("""{"url":"https://example.com/hooks","events":["deposit.completed"],"enabled":false}""", server.Requests[1].Text);
        Assert.Null(server.Requests[1].Header("Idempotency-Key"));
        await Assert.ThrowsAsync<ArgumentException>(() => cambio.Deposits.GetAsync(""));
    }

    [Theory]
    [InlineData("order-1\r\nX-Injected: 1")]
    [InlineData("order-1\n")]
    [InlineData("order-1\u0000")]
    [InlineData("order-1\u00e9")]
    [InlineData("")]
    public async Task An_Idempotency_Key_with_a_line_break_or_out_of_range_is_refused_before_sending_without_being_echoed(string key)
    {
        await using var server = new ScriptedServer(Reply.Json(201, new { success = true, data = Fixtures.Conversion("cnv_01JBZ6W1V7Q8R9S0T1U2V3W4X5") }));
        using var cambio = Fixtures.Client(server.Url);

        var error = await Assert.ThrowsAnyAsync<ArgumentException>(() =>
            cambio.Conversions.CreateAsync(new ConversionCreateOptions { QuoteId = "qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5" }, new RequestOptions { IdempotencyKey = key }));

        Assert.Contains("IdempotencyKey must be 1–255 printable ASCII characters", error.Message);
        if (key != "") Assert.DoesNotContain(key, error.ToString());
        Assert.Empty(server.Requests);
        await Assert.ThrowsAnyAsync<ArgumentException>(() =>
            cambio.Conversions.CreateAsync(new ConversionCreateOptions { QuoteId = "qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5" }, new RequestOptions { IdempotencyKey = new string('k', 256) }));
        await cambio.Conversions.CreateAsync(new ConversionCreateOptions { QuoteId = "qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5" }, new RequestOptions { IdempotencyKey = new string('k', 255) });
        Assert.Equal(new string('k', 255), Assert.Single(server.Requests).Header("Idempotency-Key"));
    }

    [Fact]
    public async Task One_client_is_safe_to_share_across_concurrent_tasks()
    {
        await using var server = new ScriptedServer((seen, _) =>
        {
            var body = JsonDocument.Parse(seen.Body).RootElement;
            return Reply.Json(201, new { success = true, data = Fixtures.Conversion("cnv_" + body.GetProperty("quoteId").GetString()![4..]) });
        });
        using var cambio = Fixtures.Client(server.Url);

        var ids = Enumerable.Range(0, 24).Select(i => $"qte_{i:D26}").ToList();
        var conversions = await Task.WhenAll(ids.Select(id => Task.Run(() => cambio.Conversions.CreateAsync(new ConversionCreateOptions { QuoteId = id }))));

        Assert.Equal(ids.Select(id => "cnv_" + id[4..]), conversions.Select(c => c.Id));
        var keys = server.Requests.Select(s => s.Header("Idempotency-Key")).ToList();
        Assert.Equal(24, keys.Count);
        Assert.Equal(24, keys.Distinct().Count());
    }
}

internal static class Json
{
    public static Reply Page<T>(IEnumerable<T> data, string? nextCursor) =>
        Reply.Json(200, new { success = true, data, pagination = new { nextCursor } });
}
