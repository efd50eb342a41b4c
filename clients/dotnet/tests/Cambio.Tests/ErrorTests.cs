using System.Text.Json;

namespace Cambio.Tests;

/// <summary>Each HTTP status maps to its family (as clients/node/src/errors.ts), carrying code, status, request id and details.</summary>
public class ErrorTests
{
    /// <summary>Every (status, code) answer openapi.json documents (its responses' <c>x-error-codes</c>).</summary>
    public static TheoryData<int, string> DocumentedErrors()
    {
        using var document = JsonDocument.Parse(File.ReadAllText(Fixtures.OpenApiPath));
        var answers = new SortedSet<(int Status, string Code)>();
        foreach (var operation in document.RootElement.GetProperty("paths").EnumerateObject().SelectMany(path => path.Value.EnumerateObject()))
        {
            if (operation.Value.ValueKind != JsonValueKind.Object || !operation.Value.TryGetProperty("responses", out var responses)) continue;
            foreach (var response in responses.EnumerateObject())
            {
                if (!response.Value.TryGetProperty("x-error-codes", out var codes)) continue;
                foreach (var code in codes.EnumerateArray()) answers.Add((int.Parse(response.Name), code.GetString()!));
            }
        }
        var data = new TheoryData<int, string>();
        foreach (var (status, code) in answers) data.Add(status, code);
        return data;
    }

    /// <summary>The family of each status (as the summaries in Exceptions.cs say).</summary>
    private static Type Family(int status) => status switch
    {
        400 or 403 or 413 or 415 => typeof(InvalidRequestException),
        401 => typeof(AuthenticationException),
        404 => typeof(NotFoundException),
        409 => typeof(ConflictException),
        422 => typeof(RefusedException),
        429 => typeof(RateLimitException),
        >= 500 => typeof(ApiServerException),
        _ => throw new ArgumentOutOfRangeException(nameof(status), status, "openapi.json documents an error status this test does not know"),
    };

    [Theory]
    [MemberData(nameof(DocumentedErrors))]
    public async Task Status_maps_to_its_family(int status, string code)
    {
        await using var server = new ScriptedServer(Reply.Failure(status, code, "what went wrong", headers: ("X-Request-Id", "req-abc")));
        using var cambio = Fixtures.Client(server.Url, maxRetries: 0);

        var error = await Assert.ThrowsAnyAsync<CambioException>(() => cambio.Conversions.GetAsync("cnv_01JBZ6W1V7Q8R9S0T1U2V3W4X5"));

        Assert.IsType(Family(status), error);
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
