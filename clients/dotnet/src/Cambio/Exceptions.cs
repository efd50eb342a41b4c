using System;
using System.Collections.Generic;
using System.Text.Json;

namespace Cambio;

/// <summary>
/// Every failure the client reports. The subclass tells the family (what to do about it),
/// <see cref="Code"/> the contract's reason, <see cref="StatusCode"/> the HTTP status and
/// <see cref="RequestId"/> the id to quote to support. Match on the type or on <see cref="Code"/>
/// (see <see cref="ErrorCodes"/>), never on <see cref="Exception.Message"/>.
/// </summary>
public class CambioException : Exception
{
    /// <summary>Creates an error.</summary>
    public CambioException(string message, string code, int? statusCode = null, string? requestId = null, JsonElement? details = null, Exception? innerException = null)
        : base(message, innerException)
    {
        Code = code;
        StatusCode = statusCode;
        RequestId = requestId;
        Details = details is { ValueKind: not JsonValueKind.Null and not JsonValueKind.Undefined } d ? d.Clone() : null;
    }

    /// <summary>The contract's code (<c>INSUFFICIENT_BALANCE</c>, …) or a client-side one
    /// (<c>CONNECTION_FAILED</c>, <c>TIMEOUT</c>, <c>INVALID_RESPONSE</c>, <c>WEBHOOK_VERIFICATION_FAILED</c>).</summary>
    public string Code { get; }

    /// <summary>The HTTP status; null when no answer came back (or for a webhook verification).</summary>
    public int? StatusCode { get; }

    /// <summary>The answer's <c>X-Request-Id</c>: quote it to support.</summary>
    public string? RequestId { get; }

    /// <summary><c>error.details</c> from the answer, or null: for <c>VALIDATION_FAILED</c> an array of
    /// <c>{path, message}</c> (see <see cref="FieldErrors"/>), for some codes an object (e.g. <c>existingId</c>).</summary>
    public JsonElement? Details { get; }

    /// <summary>The failing fields of a <c>VALIDATION_FAILED</c> answer; empty otherwise.</summary>
    public IReadOnlyList<FieldError> FieldErrors
    {
        get
        {
            if (Details is not { ValueKind: JsonValueKind.Array } array) return Array.Empty<FieldError>();
            var list = new List<FieldError>();
            foreach (var item in array.EnumerateArray())
            {
                if (item.ValueKind == JsonValueKind.Object
                    && item.TryGetProperty("path", out var path) && path.ValueKind == JsonValueKind.String
                    && item.TryGetProperty("message", out var message) && message.ValueKind == JsonValueKind.String)
                {
                    list.Add(new FieldError { Path = path.GetString()!, Message = message.GetString()! });
                }
            }
            return list;
        }
    }
}

/// <summary>400, 403, 413, 415: the request itself is wrong (see <see cref="CambioException.Details"/>), or a firewall refused it; retrying will not help.</summary>
public class InvalidRequestException(string message, string code, int? statusCode = null, string? requestId = null, JsonElement? details = null, Exception? innerException = null)
    : CambioException(message, code, statusCode, requestId, details, innerException);

/// <summary>401: the API key or secret is missing or wrong (<c>AUTH_FAILED</c>). Not to be confused with
/// <c>System.Security.Authentication.AuthenticationException</c> (TLS): write <c>Cambio.AuthenticationException</c>
/// where both namespaces are imported.</summary>
public class AuthenticationException(string message, string code, int? statusCode = null, string? requestId = null, JsonElement? details = null, Exception? innerException = null)
    : CambioException(message, code, statusCode, requestId, details, innerException);

/// <summary>404: an unknown id (or another company's).</summary>
public class NotFoundException(string message, string code, int? statusCode = null, string? requestId = null, JsonElement? details = null, Exception? innerException = null)
    : CambioException(message, code, statusCode, requestId, details, innerException);

/// <summary>409: a duplicate reference (<c>details.existingId</c>), a quote already used, or the same Idempotency-Key still running (retried by the client).</summary>
public class ConflictException(string message, string code, int? statusCode = null, string? requestId = null, JsonElement? details = null, Exception? innerException = null)
    : CambioException(message, code, statusCode, requestId, details, innerException);

/// <summary>422: refused on its merits: <c>INSUFFICIENT_BALANCE</c>, <c>QUOTE_EXPIRED</c>, <c>AMOUNT_TOO_SMALL</c>, <c>LIMIT_REACHED</c>, <c>ADDRESS_NOT_ALLOWED</c>, <c>IDEMPOTENCY_KEY_REUSED</c>.</summary>
public class RefusedException(string message, string code, int? statusCode = null, string? requestId = null, JsonElement? details = null, Exception? innerException = null)
    : CambioException(message, code, statusCode, requestId, details, innerException);

/// <summary>429: throttled; the client already retried with backoff (and <c>Retry-After</c>).</summary>
public class RateLimitException(string message, string code, int? statusCode = null, string? requestId = null, JsonElement? details = null, Exception? innerException = null)
    : CambioException(message, code, statusCode, requestId, details, innerException);

/// <summary>5xx: Cambio failed or a dependency is unavailable (e.g. <c>PRICE_UNAVAILABLE</c>); the client already retried.</summary>
public class ApiServerException(string message, string code, int? statusCode = null, string? requestId = null, JsonElement? details = null, Exception? innerException = null)
    : CambioException(message, code, statusCode, requestId, details, innerException);

/// <summary>No answer: the connection failed (<c>CONNECTION_FAILED</c>) or a try timed out (<c>TIMEOUT</c>);
/// the client already retried. The <see cref="Exception.InnerException"/> is the framework's
/// <c>HttpRequestException</c> or <c>TaskCanceledException</c>.</summary>
public class ConnectionException : CambioException
{
    /// <summary>Creates an error.</summary>
    public ConnectionException(string message, string code, Exception? innerException = null)
        : base(message, code, null, null, null, innerException) { }
}

/// <summary>An answer that is not the API's JSON envelope, or whose data does not fit the record
/// (<c>INVALID_RESPONSE</c>): e.g. a proxy's HTML page or a redirect. A non-JSON 5xx is an
/// <see cref="ApiServerException"/> instead (and retried).</summary>
public class InvalidResponseException : CambioException
{
    /// <summary>Creates an error.</summary>
    public InvalidResponseException(string message, int? statusCode = null, string? requestId = null, Exception? innerException = null)
        : base(message, "INVALID_RESPONSE", statusCode, requestId, null, innerException) { }
}

/// <summary><c>Webhooks.Verify</c> refused a delivery (<c>WEBHOOK_VERIFICATION_FAILED</c>): do not trust its body.
/// The message names the likely mistake (most often a body parsed and re-serialised instead of the raw bytes).</summary>
public class WebhookVerificationException : CambioException
{
    /// <summary>Creates an error.</summary>
    public WebhookVerificationException(string message, Exception? innerException = null)
        : base(message, "WEBHOOK_VERIFICATION_FAILED", null, null, null, innerException) { }
}
