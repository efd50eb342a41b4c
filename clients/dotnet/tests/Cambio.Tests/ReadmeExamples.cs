// Every C# block of ../../README.md, compiled here; ReadmeExamplesTests checks that each README
// block appears in this file line for line, and runs the ASP.NET Core webhook receiver.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using Cambio;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cambio.Tests;

public static class ReadmeExamples
{
    public static CambioClient Construct()
    {
        // README: construct
        var cambio = new CambioClient(new CambioClientOptions
        {
            ApiKey = Environment.GetEnvironmentVariable("CAMBIO_API_KEY"),
            ApiSecret = Environment.GetEnvironmentVariable("CAMBIO_API_SECRET"),
            // Your stage's ApiUrl stack output (https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1),
            // or the local runtime's URL as `npm start` prints it (http://127.0.0.1:3000/v1).
            BaseUrl = Environment.GetEnvironmentVariable("CAMBIO_API_URL"),
        });
        return cambio;
    }

    public static async Task Calls(CambioClient cambio, CancellationToken cancellationToken)
    {
        // README: calls
        Company company = await cambio.Company.GetAsync();
        // Tier: "standard" for a new company, "growth" or "scale" once raised (or a tier added later)
        Console.WriteLine($"{company.RateLimit.Tier}: {company.RateLimit.RequestsPerSecond} requests/s, bursts of {company.RateLimit.Burst}");
        Balance balance = await cambio.Company.GetBalanceAsync();
        foreach (CurrencyBalance b in balance.Balances)
            Console.WriteLine($"{b.Currency}: {b.Available} available, {b.Pending} pending, {b.Locked} locked");

        Deposit deposit = await cambio.Deposits.CreateAsync(new DepositCreateOptions
        {
            Method = "usdt", Network = "tron", Reference = "order-1", Amount = "25",
        });
        Console.WriteLine($"pay {deposit.Amount} USDT to {deposit.Address} on {deposit.Network}");
        deposit = await cambio.Deposits.GetAsync(deposit.Id, cancellationToken: cancellationToken);

        Quote quote = await cambio.Conversions.QuoteAsync(new ConversionQuoteOptions
        {
            SourceCurrency = "USDT", SettlementCurrency = "BRL", SourceAmount = 10m, // a decimal or a string
        });
        Conversion conversion = await cambio.Conversions.CreateAsync(new ConversionCreateOptions { QuoteId = quote.Id });
        conversion = await cambio.Conversions.GetAsync(conversion.Id);

        Withdrawal withdrawal = await cambio.Withdrawals.CreateAsync(new WithdrawalCreateOptions
        {
            Network = "tron", Address = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui", Amount = "5", Reference = "payout-1",
        });
        withdrawal = await cambio.Withdrawals.GetAsync(withdrawal.Id);

        CreatedWebhook hook = await cambio.Webhooks.CreateAsync(new WebhookOptions
        {
            Url = "https://example.com/cambio/webhooks", Events = ["deposit.completed", "withdrawal.failed"],
        });
        Console.WriteLine($"store this secret: {hook.Secret}"); // a CreatedWebhook is a Webhook and its Secret
        Webhook updated = await cambio.Webhooks.UpdateAsync(hook.Id, new WebhookOptions { Url = hook.Url, Events = ["*"] });
        Webhook same = await cambio.Webhooks.GetAsync(hook.Id);
        Page<Webhook> hooks = await cambio.Webhooks.ListAsync();
        DeletedWebhook deleted = await cambio.Webhooks.DeleteAsync(hook.Id); // deleted.Deleted == true
    }

    public static async Task Pagination(CambioClient cambio, CancellationToken cancellationToken)
    {
        // README: pagination
        Page<Conversion> page = await cambio.Conversions.ListAsync(new ListOptions { Limit = 10 });
        Console.WriteLine($"{page.Data.Count} conversions, next page: {page.NextCursor ?? "none"}");
        Page<Conversion> next = await cambio.Conversions.ListAsync(new ListOptions { Limit = 10, Cursor = page.NextCursor });

        await foreach (Conversion c in cambio.Conversions.ListAutoPagingAsync(new ListOptions { Limit = 100 }, cancellationToken: cancellationToken))
            Console.WriteLine($"{c.Id}: {c.SourceAmount} USDT → {c.SettlementAmount} BRL");
    }

    public static async Task Errors(CambioClient cambio)
    {
        // README: errors
        try
        {
            await cambio.Withdrawals.CreateAsync(new WithdrawalCreateOptions
            {
                Network = "tron", Address = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui", Amount = 1000m, Reference = "payout-2",
            });
        }
        catch (RefusedException e) when (e.Code == ErrorCodes.InsufficientBalance)
        {
            Console.WriteLine($"top up first (request {e.RequestId})");
        }
        catch (InvalidRequestException e)
        {
            foreach (FieldError field in e.FieldErrors) Console.WriteLine($"{field.Path}: {field.Message}");
        }
        catch (CambioException e)
        {
            Console.WriteLine($"{e.GetType().Name} {e.Code} HTTP {e.StatusCode} request {e.RequestId}: {e.Message}");
        }
    }

    public static async Task Idempotency(CambioClient cambio, string orderId)
    {
        // README: idempotency
        Withdrawal payout = await cambio.Withdrawals.CreateAsync(
            new WithdrawalCreateOptions { Network = "tron", Address = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui", Amount = "5", Reference = $"payout-{orderId}" },
            new RequestOptions { IdempotencyKey = $"payout-{orderId}", MaxRetries = 5 });
    }

    public static WebhookEvent VerifyAnywhere(string rawBody, IDictionary<string, string> headers, string webhookSecret, long unixSeconds)
    {
        // README: verify
        // Without a client too: WebhookSignature.Verify(rawBody, headers, webhookSecret).
        WebhookEvent e = WebhookSignature.Verify(rawBody, headers, webhookSecret);
        // In tests, pin the clock (or pass a TimeProvider) and, if you must, widen the 300 s tolerance:
        e = WebhookSignature.Verify(rawBody, headers, webhookSecret, new WebhookVerifyOptions
        {
            Now = DateTimeOffset.FromUnixTimeSeconds(unixSeconds), Tolerance = TimeSpan.FromMinutes(5),
        });
        return e;
    }

    public static WebApplication WebhookReceiver(string[] args)
    {
        // README: webhook receiver
        var builder = WebApplication.CreateBuilder(args);
        // One client for the whole application: it is thread-safe.
        builder.Services.AddSingleton(new CambioClient(new CambioClientOptions
        {
            ApiKey = builder.Configuration["Cambio:ApiKey"],
            ApiSecret = builder.Configuration["Cambio:ApiSecret"],
            BaseUrl = builder.Configuration["Cambio:ApiUrl"],
        }));
        var app = builder.Build();
        var webhookSecret = app.Configuration["Cambio:WebhookSecret"]!; // "whsec_…", from Webhooks.CreateAsync

        app.MapPost("/cambio/webhooks", async (HttpRequest request, CambioClient cambio) =>
        {
            // The signature covers the exact bytes Cambio sent: read the raw body, never a bound model.
            request.EnableBuffering();
            string rawBody;
            using (var reader = new StreamReader(request.Body, leaveOpen: true))
                rawBody = await reader.ReadToEndAsync();

            WebhookEvent e;
            try
            {
                e = cambio.Webhooks.Verify(rawBody, request.Headers, webhookSecret);
            }
            catch (WebhookVerificationException error)
            {
                app.Logger.LogWarning("Refused a webhook: {Reason}", error.Message);
                return Results.BadRequest();
            }

            if (e.Type == WebhookEventTypes.DepositCompleted)
            {
                Deposit deposit = e.DataAs<Deposit>();
                app.Logger.LogInformation("Deposit {Reference} credited {Amount} USDT (event {Id})", deposit.Reference, deposit.CreditedAmount, e.Id);
            }
            else if (e.Type == WebhookEventTypes.DepositTransferReversed)
            {
                Deposit deposit = e.DataAs<Deposit>(); // the transfer seen confirming is gone: not credited
                app.Logger.LogInformation("Deposit {Reference} awaits payment again (event {Id})", deposit.Reference, e.Id);
            }
            else if (e.Type == WebhookEventTypes.DepositHeld)
            {
                Deposit deposit = e.DataAs<Deposit>(); // recorded, not credited: HoldReason says why
                app.Logger.LogInformation("Deposit {Reference} is held: {Reason} (event {Id})", deposit.Reference, deposit.HoldReason, e.Id);
            }
            return Results.NoContent(); // any 2xx within 15 s acknowledges; deduplicate on e.Id
        });
        return app;
    }
}
