using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;

namespace Cambio;

/// <summary>What every service of <see cref="CambioClient"/> holds: the client its requests go through.</summary>
public abstract class CambioService
{
    private protected CambioService(CambioClient client) => Client = client;

    private protected CambioClient Client { get; }

    /// <summary>A request's options, refused at once when null (before any request is made).</summary>
    private protected static T Required<T>(T options) where T : class => options ?? throw new ArgumentNullException(nameof(options));
}

/// <summary>The company the API key belongs to.</summary>
public sealed class CompanyService : CambioService
{
    internal CompanyService(CambioClient client) : base(client) { }

    /// <summary><c>GET /v1/company</c>.</summary>
    public Task<Company> GetAsync(RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Company>(HttpMethod.Get, "/v1/company", null, requestOptions, cancellationToken);

    /// <summary><c>GET /v1/company/balance</c>: USDT and BRL, each <c>Available</c>, <c>Pending</c> and <c>Locked</c> as decimal strings.</summary>
    public Task<Balance> GetBalanceAsync(RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Balance>(HttpMethod.Get, "/v1/company/balance", null, requestOptions, cancellationToken);
}

/// <summary>USDT deposits on TRON.</summary>
public sealed class DepositService : CambioService
{
    internal DepositService(CambioClient client) : base(client) { }

    /// <summary><c>POST /v1/deposits</c>: a fresh TRON address to pay. <c>Method</c> and <c>Network</c> default to <c>usdt</c> and <c>tron</c>.</summary>
    public Task<Deposit> CreateAsync(DepositCreateOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Deposit>(HttpMethod.Post, "/v1/deposits", Required(options), requestOptions, cancellationToken);

    /// <summary><c>GET /v1/deposits/{id}</c>.</summary>
    public Task<Deposit> GetAsync(string id, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Deposit>(HttpMethod.Get, "/v1/deposits/" + CambioClient.Segment(id), null, requestOptions, cancellationToken);
}

/// <summary>USDT withdrawals on TRON.</summary>
public sealed class WithdrawalService : CambioService
{
    internal WithdrawalService(CambioClient client) : base(client) { }

    /// <summary><c>POST /v1/withdrawals</c>: <c>Amount</c> + fee move from available to locked, or a <see cref="RefusedException"/>
    /// with <c>INSUFFICIENT_BALANCE</c>. Retries carry the same Idempotency-Key, so a withdrawal is never made twice.</summary>
    public Task<Withdrawal> CreateAsync(WithdrawalCreateOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Withdrawal>(HttpMethod.Post, "/v1/withdrawals", Required(options), requestOptions, cancellationToken);

    /// <summary><c>GET /v1/withdrawals/{id}</c>.</summary>
    public Task<Withdrawal> GetAsync(string id, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Withdrawal>(HttpMethod.Get, "/v1/withdrawals/" + CambioClient.Segment(id), null, requestOptions, cancellationToken);
}

/// <summary>USDT → BRL conversions: a quote (valid 30 s), then its execution.</summary>
public sealed class ConversionService : CambioService
{
    internal ConversionService(CambioClient client) : base(client) { }

    /// <summary><c>POST /v1/conversions/quote</c>: a quote valid 30 s. <c>SourceCurrency</c>/<c>SettlementCurrency</c> default to USDT/BRL.</summary>
    public Task<Quote> QuoteAsync(ConversionQuoteOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Quote>(HttpMethod.Post, "/v1/conversions/quote", Required(options), requestOptions, cancellationToken);

    /// <summary><c>POST /v1/conversions</c>: executes a quote.</summary>
    public Task<Conversion> CreateAsync(ConversionCreateOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Conversion>(HttpMethod.Post, "/v1/conversions", Required(options), requestOptions, cancellationToken);

    /// <summary><c>GET /v1/conversions</c>: one page, newest first.</summary>
    public Task<Page<Conversion>> ListAsync(ListOptions? options = null, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.PageAsync<Conversion>("/v1/conversions", options, requestOptions, cancellationToken);

    /// <summary>Every conversion of every page, newest first, fetching each page as the loop reaches it.</summary>
    public IAsyncEnumerable<Conversion> ListAutoPagingAsync(ListOptions? options = null, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.AutoPageAsync<Conversion>("/v1/conversions", options, requestOptions, cancellationToken);

    /// <summary><c>GET /v1/conversions/{id}</c>.</summary>
    public Task<Conversion> GetAsync(string id, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Conversion>(HttpMethod.Get, "/v1/conversions/" + CambioClient.Segment(id), null, requestOptions, cancellationToken);
}

/// <summary>Webhook endpoints, and verification of what Cambio delivers to them.</summary>
public sealed class WebhookService : CambioService
{
    internal WebhookService(CambioClient client) : base(client) { }

    /// <summary><c>GET /v1/webhooks</c>: one page.</summary>
    public Task<Page<Webhook>> ListAsync(ListOptions? options = null, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.PageAsync<Webhook>("/v1/webhooks", options, requestOptions, cancellationToken);

    /// <summary>Every webhook of every page.</summary>
    public IAsyncEnumerable<Webhook> ListAutoPagingAsync(ListOptions? options = null, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.AutoPageAsync<Webhook>("/v1/webhooks", options, requestOptions, cancellationToken);

    /// <summary><c>POST /v1/webhooks</c>. The answer carries the signing <c>Secret</c> (<c>whsec_…</c>), shown only this once: store it.</summary>
    public Task<CreatedWebhook> CreateAsync(WebhookOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<CreatedWebhook>(HttpMethod.Post, "/v1/webhooks", Required(options), requestOptions, cancellationToken);

    /// <summary><c>GET /v1/webhooks/{id}</c>.</summary>
    public Task<Webhook> GetAsync(string id, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Webhook>(HttpMethod.Get, "/v1/webhooks/" + CambioClient.Segment(id), null, requestOptions, cancellationToken);

    /// <summary><c>PUT /v1/webhooks/{id}</c>: replaces the webhook (omitted optional fields take their defaults); the secret is kept.</summary>
    public Task<Webhook> UpdateAsync(string id, WebhookOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Webhook>(HttpMethod.Put, "/v1/webhooks/" + CambioClient.Segment(id), Required(options), requestOptions, cancellationToken);

    /// <summary><c>DELETE /v1/webhooks/{id}</c>.</summary>
    public Task<DeletedWebhook> DeleteAsync(string id, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<DeletedWebhook>(HttpMethod.Delete, "/v1/webhooks/" + CambioClient.Segment(id), null, requestOptions, cancellationToken);

    /// <summary>Verifies a delivery over its raw body and returns its event; see <see cref="WebhookSignature"/>.</summary>
    /// <exception cref="WebhookVerificationException">Forged, tampered, stale, or a body that is not the raw one.</exception>
    public WebhookEvent Verify(string rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, headers, secret, options);

    /// <inheritdoc cref="Verify(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public WebhookEvent Verify(byte[] rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, headers, secret, options);

    /// <inheritdoc cref="Verify(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public WebhookEvent Verify(ReadOnlySpan<byte> rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, headers, secret, options);

    /// <summary>Verifies a delivery whose headers are name/values pairs: ASP.NET Core's <c>Request.Headers</c>,
    /// <c>HttpHeaders</c>, a <c>Dictionary&lt;string, string[]&gt;</c>…</summary>
    /// <exception cref="WebhookVerificationException">Forged, tampered, stale, or a body that is not the raw one.</exception>
    public WebhookEvent Verify<TValues>(string rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, headers, secret, options);

    /// <inheritdoc cref="Verify{TValues}(string, IEnumerable{KeyValuePair{string, TValues}}, string, WebhookVerifyOptions?)"/>
    public WebhookEvent Verify<TValues>(byte[] rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, headers, secret, options);

    /// <inheritdoc cref="Verify{TValues}(string, IEnumerable{KeyValuePair{string, TValues}}, string, WebhookVerifyOptions?)"/>
    public WebhookEvent Verify<TValues>(ReadOnlySpan<byte> rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, headers, secret, options);

    /// <summary>Verifies a delivery whose headers are read by name (case-insensitively, as HTTP names are), e.g. <c>name =&gt; Request.Headers[name]</c>.</summary>
    /// <exception cref="WebhookVerificationException">Forged, tampered, stale, or a body that is not the raw one.</exception>
    public WebhookEvent Verify(string rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, header, secret, options);

    /// <inheritdoc cref="Verify(string, Func{string, string?}, string, WebhookVerifyOptions?)"/>
    public WebhookEvent Verify(byte[] rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, header, secret, options);

    /// <inheritdoc cref="Verify(string, Func{string, string?}, string, WebhookVerifyOptions?)"/>
    public WebhookEvent Verify(ReadOnlySpan<byte> rawBody, Func<string, string?> header, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.Verify(rawBody, header, secret, options);
}
