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

/// <summary>A service of one resource, whose records are read by id at <c>/v1/{resource}/{id}</c>:
/// the route and the calls every such resource shares (as Stripe.net's services share <c>Service&lt;T&gt;</c>).</summary>
/// <typeparam name="TRecord">The resource's record, e.g. <see cref="Deposit"/>.</typeparam>
public abstract class CambioService<TRecord> : CambioService
{
    private protected CambioService(CambioClient client, string path) : base(client) => Path = path;

    /// <summary>The resource's route, e.g. <c>/v1/deposits</c>.</summary>
    private protected string Path { get; }

    /// <summary><c>GET /v1/{resource}/{id}</c>: the record with this id.</summary>
    public Task<TRecord> GetAsync(string id, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<TRecord>(HttpMethod.Get, PathOf(id), null, requestOptions, cancellationToken);

    /// <summary>One record's route: the resource's, then the id, escaped.</summary>
    private protected string PathOf(string id) => Path + "/" + CambioClient.Segment(id);

    /// <summary><c>GET /v1/{resource}</c>: one page.</summary>
    private protected Task<Page<TRecord>> PageAsync(ListOptions? options, RequestOptions? requestOptions, CancellationToken cancellationToken) =>
        Client.PageAsync<TRecord>(Path, options, requestOptions, cancellationToken);

    /// <summary>Every record of every page, fetching each page as the loop reaches it.</summary>
    private protected IAsyncEnumerable<TRecord> AutoPageAsync(ListOptions? options, RequestOptions? requestOptions, CancellationToken cancellationToken) =>
        Client.AutoPageAsync<TRecord>(Path, options, requestOptions, cancellationToken);
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

/// <summary>USDT deposits on TRON, the EVM networks and Solana, <c>/v1/deposits</c>.</summary>
public sealed class DepositService : CambioService<Deposit>
{
    internal DepositService(CambioClient client) : base(client, "/v1/deposits") { }

    /// <summary><c>POST /v1/deposits</c>: a fresh address to pay, on <c>Network</c> (required: <c>tron</c>, <c>ethereum</c>, <c>bsc</c>, <c>polygon</c>, <c>arbitrum</c> or <c>solana</c>). <c>Method</c> defaults to <c>usdt</c>.</summary>
    public Task<Deposit> CreateAsync(DepositCreateOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Deposit>(HttpMethod.Post, Path, Required(options), requestOptions, cancellationToken);
}

/// <summary>USDT withdrawals on TRON, the EVM networks and Solana, <c>/v1/withdrawals</c>.</summary>
public sealed class WithdrawalService : CambioService<Withdrawal>
{
    internal WithdrawalService(CambioClient client) : base(client, "/v1/withdrawals") { }

    /// <summary><c>POST /v1/withdrawals</c>: sends <c>Amount</c> to <c>Address</c> on <c>Network</c> (required; an EIP-55
    /// <c>0x…</c> address on an EVM network, a wallet's base58 address on <c>solana</c>). <c>Amount</c> + fee move from available to
    /// locked, or a <see cref="RefusedException"/>
    /// with <c>INSUFFICIENT_BALANCE</c>. Retries carry the same Idempotency-Key, so a withdrawal is never made twice.</summary>
    public Task<Withdrawal> CreateAsync(WithdrawalCreateOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Withdrawal>(HttpMethod.Post, Path, Required(options), requestOptions, cancellationToken);
}

/// <summary>USDT → BRL conversions, <c>/v1/conversions</c>: a quote (valid 30 s), then its execution.</summary>
public sealed class ConversionService : CambioService<Conversion>
{
    internal ConversionService(CambioClient client) : base(client, "/v1/conversions") { }

    /// <summary><c>POST /v1/conversions/quote</c>: a quote valid 30 s. <c>SourceCurrency</c>/<c>SettlementCurrency</c> default to USDT/BRL.</summary>
    public Task<Quote> QuoteAsync(ConversionQuoteOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Quote>(HttpMethod.Post, Path + "/quote", Required(options), requestOptions, cancellationToken);

    /// <summary><c>POST /v1/conversions</c>: executes a quote.</summary>
    public Task<Conversion> CreateAsync(ConversionCreateOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Conversion>(HttpMethod.Post, Path, Required(options), requestOptions, cancellationToken);

    /// <summary><c>GET /v1/conversions</c>: one page, newest first.</summary>
    public Task<Page<Conversion>> ListAsync(ListOptions? options = null, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        PageAsync(options, requestOptions, cancellationToken);

    /// <summary>Every conversion of every page, newest first, fetching each page as the loop reaches it.</summary>
    public IAsyncEnumerable<Conversion> ListAutoPagingAsync(ListOptions? options = null, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        AutoPageAsync(options, requestOptions, cancellationToken);
}

/// <summary>Webhook endpoints, <c>/v1/webhooks</c>, and verification of what Cambio delivers to them.</summary>
public sealed class WebhookService : CambioService<Webhook>
{
    internal WebhookService(CambioClient client) : base(client, "/v1/webhooks") { }

    /// <summary><c>GET /v1/webhooks</c>: one page.</summary>
    public Task<Page<Webhook>> ListAsync(ListOptions? options = null, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        PageAsync(options, requestOptions, cancellationToken);

    /// <summary>Every webhook of every page.</summary>
    public IAsyncEnumerable<Webhook> ListAutoPagingAsync(ListOptions? options = null, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        AutoPageAsync(options, requestOptions, cancellationToken);

    /// <summary><c>POST /v1/webhooks</c>. The answer carries the signing <c>Secret</c> (<c>whsec_…</c>), shown only this once: store it.</summary>
    public Task<CreatedWebhook> CreateAsync(WebhookOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<CreatedWebhook>(HttpMethod.Post, Path, Required(options), requestOptions, cancellationToken);

    /// <summary><c>PUT /v1/webhooks/{id}</c>: replaces the webhook (omitted optional fields take their defaults); the secret is kept.</summary>
    public Task<Webhook> UpdateAsync(string id, WebhookOptions options, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.RequestAsync<Webhook>(HttpMethod.Put, PathOf(id), Required(options), requestOptions, cancellationToken);

    /// <summary><c>DELETE /v1/webhooks/{id}</c>. When a retry (after a timeout, a lost connection or a 5xx) is answered 404,
    /// the try before it deleted the webhook and its answer was lost: that is this same success (<c>Deleted</c> true), not a
    /// <see cref="NotFoundException"/>. A 404 to the first try is a <see cref="NotFoundException"/>.</summary>
    public Task<DeletedWebhook> DeleteAsync(string id, RequestOptions? requestOptions = null, CancellationToken cancellationToken = default) =>
        Client.DeleteAsync(PathOf(id), () => new DeletedWebhook { Id = id, Deleted = true }, requestOptions, cancellationToken);

    /// <summary>Verifies a delivery over its raw body, then returns its event (with a null <c>Type</c> when the verified
    /// body is not a Cambio event); see <see cref="WebhookSignature"/>.</summary>
    /// <exception cref="WebhookVerificationException">Forged, tampered, stale, or a body that is not the raw one: the message says what failed.</exception>
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

    /// <summary>The first step of <c>Verify</c> alone: throws unless the delivery is signed and fresh; the body is not read.
    /// See <see cref="WebhookSignature.VerifySignature(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>.</summary>
    public void VerifySignature(string rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.VerifySignature(rawBody, headers, secret, options);

    /// <inheritdoc cref="VerifySignature(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public void VerifySignature(byte[] rawBody, IDictionary<string, string> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.VerifySignature(rawBody, headers, secret, options);

    /// <inheritdoc cref="VerifySignature(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public void VerifySignature<TValues>(string rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.VerifySignature(rawBody, headers, secret, options);

    /// <inheritdoc cref="VerifySignature(string, IDictionary{string, string}, string, WebhookVerifyOptions?)"/>
    public void VerifySignature<TValues>(byte[] rawBody, IEnumerable<KeyValuePair<string, TValues>> headers, string secret, WebhookVerifyOptions? options = null) =>
        WebhookSignature.VerifySignature(rawBody, headers, secret, options);
}
