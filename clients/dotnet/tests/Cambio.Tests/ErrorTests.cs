namespace Cambio.Tests;

/// <summary>Each HTTP status maps to its family (as clients/node/src/errors.ts), carrying code, status, request id and details.</summary>
public class ErrorTests
{
    [Theory]
    [InlineData(400, "VALIDATION_FAILED", typeof(InvalidRequestException))]
    [InlineData(400, "INVALID_JSON", typeof(InvalidRequestException))]
    [InlineData(401, "AUTH_FAILED", typeof(AuthenticationException))]
    [InlineData(403, "FORBIDDEN", typeof(InvalidRequestException))]
    [InlineData(404, "NOT_FOUND", typeof(NotFoundException))]
    [InlineData(409, "QUOTE_ALREADY_USED", typeof(ConflictException))]
    [InlineData(413, "PAYLOAD_TOO_LARGE", typeof(InvalidRequestException))]
    [InlineData(415, "UNSUPPORTED_MEDIA_TYPE", typeof(InvalidRequestException))]
    [InlineData(422, "QUOTE_EXPIRED", typeof(RefusedException))]
    [InlineData(429, "RATE_LIMITED", typeof(RateLimitException))]
    [InlineData(500, "INTERNAL_ERROR", typeof(ApiServerException))]
    [InlineData(503, "PRICE_UNAVAILABLE", typeof(ApiServerException))]
    public async Task Status_maps_to_its_family(int status, string code, Type family)
    {
        await using var server = new ScriptedServer(Reply.Failure(status, code, "what went wrong", headers: ("X-Request-Id", "req-abc")));
        using var cambio = Fixtures.Client(server.Url, maxRetries: 0);

        var error = await Assert.ThrowsAnyAsync<CambioException>(() => cambio.Conversions.GetAsync("cnv_01JBZ6W1V7Q8R9S0T1U2V3W4X5"));

        Assert.IsType(family, error);
        Assert.Equal(code, error.Code);
        Assert.Equal(status, error.StatusCode);
        Assert.Equal("req-abc", error.RequestId);
        Assert.Null(error.Details);
        Assert.Equal($"what went wrong ({code}, request req-abc)", error.Message);
    }

    [Fact]
    public async Task A_200_that_is_not_JSON_is_an_InvalidResponseException_not_a_crash()
    {
        await using var server = new ScriptedServer(Reply.Raw(200, "text/html", "<html>captive portal</html>", ("X-Request-Id", "req-html")));
        using var cambio = Fixtures.Client(server.Url);

        var error = await Assert.ThrowsAsync<InvalidResponseException>(() => cambio.Company.GetAsync());

        Assert.IsAssignableFrom<CambioException>(error);
        Assert.Equal(("INVALID_RESPONSE", 200, "req-html"), (error.Code, error.StatusCode, error.RequestId));
        Assert.Single(server.Requests);
    }

    [Fact]
    public async Task JSON_without_the_envelope_is_an_InvalidResponseException()
    {
        await using var server = new ScriptedServer((_, attempt) => attempt == 1
            ? Reply.Json(200, new { id = "cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5" })
            : Reply.Json(400, new { message = "Bad Request" }));
        using var cambio = Fixtures.Client(server.Url);

        var bare = await Assert.ThrowsAsync<InvalidResponseException>(() => cambio.Company.GetAsync());
        var gateway = await Assert.ThrowsAsync<InvalidResponseException>(() => cambio.Company.GetAsync());

        Assert.Equal(("INVALID_RESPONSE", 200), (bare.Code, bare.StatusCode));
        Assert.Equal(("INVALID_RESPONSE", 400), (gateway.Code, gateway.StatusCode));
        Assert.Equal(2, server.Requests.Count);
    }

    [Fact]
    public async Task Data_that_does_not_fit_the_record_is_an_InvalidResponseException()
    {
        await using var server = new ScriptedServer(Reply.Ok(new { id = "cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5" }));
        using var cambio = Fixtures.Client(server.Url);

        var error = await Assert.ThrowsAsync<InvalidResponseException>(() => cambio.Company.GetAsync());

        Assert.Contains("Company", error.Message);
        Assert.IsType<System.Text.Json.JsonException>(error.InnerException);
    }

    [Fact]
    public async Task A_redirect_is_not_followed_so_the_credentials_stay_with_the_base_URL()
    {
        await using var elsewhere = new ScriptedServer(Reply.Ok(Fixtures.Company));
        await using var server = new ScriptedServer(Reply.Raw(302, "text/plain", "moved", ("Location", elsewhere.Url + "/v1/company")));
        using var cambio = Fixtures.Client(server.Url);

        var error = await Assert.ThrowsAsync<InvalidResponseException>(() => cambio.Company.GetAsync());

        Assert.Equal(302, error.StatusCode);
        Assert.Empty(elsewhere.Requests);
    }
}
