namespace Cambio.Tests;

/// <summary>ListAsync returns one page; ListAutoPagingAsync walks every item of every page, lazily.</summary>
public class PaginationTests
{
    private static ScriptedServer ThreePages() => new((seen, _) =>
    {
        var query = seen.Target.Contains('?') ? seen.Target[(seen.Target.IndexOf('?') + 1)..] : "";
        var cursor = query.Split('&').FirstOrDefault(p => p.StartsWith("cursor="))?["cursor=".Length..];
        return cursor switch
        {
            null => Json.Page(new[] { Fixtures.Conversion("cnv_5"), Fixtures.Conversion("cnv_4") }, "c/2+"),
            "c%2F2%2B" => Json.Page(new[] { Fixtures.Conversion("cnv_3"), Fixtures.Conversion("cnv_2") }, "c3"),
            "c3" => Json.Page(new[] { Fixtures.Conversion("cnv_1") }, null),
            _ => Reply.Failure(400, "VALIDATION_FAILED"),
        };
    });

    [Fact]
    public async Task ListAsync_returns_one_page_with_its_next_cursor()
    {
        await using var server = ThreePages();
        using var cambio = Fixtures.Client(server.Url);

        var page = await cambio.Conversions.ListAsync(new ListOptions { Limit = 2 });

        Assert.Equal(new[] { "cnv_5", "cnv_4" }, page.Data.Select(c => c.Id));
        Assert.Equal("c/2+", page.NextCursor);
        Assert.True(page.HasMore);
        Assert.Equal("GET /v1/conversions?limit=2", server.Requests.Select(s => $"{s.Method} {s.Target}").Single());

        var next = await cambio.Conversions.ListAsync(new ListOptions { Limit = 2, Cursor = page.NextCursor });
        Assert.Equal(new[] { "cnv_3", "cnv_2" }, next.Data.Select(c => c.Id));
        Assert.Equal("/v1/conversions?limit=2&cursor=c%2F2%2B", server.Requests[^1].Target);
    }

    [Fact]
    public async Task ListAutoPagingAsync_walks_every_page_to_the_end()
    {
        await using var server = ThreePages();
        using var cambio = Fixtures.Client(server.Url);

        var ids = new List<string>();
        await foreach (var conversion in cambio.Conversions.ListAutoPagingAsync(new ListOptions { Limit = 2 })) ids.Add(conversion.Id);

        Assert.Equal(new[] { "cnv_5", "cnv_4", "cnv_3", "cnv_2", "cnv_1" }, ids);
        Assert.Equal(
            new[] { "/v1/conversions?limit=2", "/v1/conversions?limit=2&cursor=c%2F2%2B", "/v1/conversions?limit=2&cursor=c3" },
            server.Requests.Select(s => s.Target));
    }

    /// <summary>The nextCursor of each page, in order, and the cursor answered again.</summary>
    public static TheoryData<string[], string> RepeatedCursors() => new()
    {
        { new[] { "c2", "c2" }, "c2" },             // the next page answers its own cursor
        { new[] { "c2", "c3", "c2" }, "c2" },       // A, B, A: not caught by comparing with the last cursor alone
        { new[] { "c2", "c3", "c4", "c3" }, "c3" },
    };

    /// <summary>A server that answers a cursor already followed would be walked forever, and stopping there would end the
    /// list early without a word: an InvalidResponseException, after the items read.</summary>
    [Theory]
    [MemberData(nameof(RepeatedCursors))]
    public async Task ListAutoPagingAsync_throws_InvalidResponseException_on_a_cursor_already_followed(string[] cursors, string repeated)
    {
        // Page n (1-based) holds cnv_n and answers the n-th cursor, twice over, then a last page: a client
        // that keeps going is caught by the count, one that stops by the missing exception.
        await using var server = new ScriptedServer((_, n) =>
            Json.Page(new[] { Fixtures.Conversion("cnv_" + n) }, n > 2 * cursors.Length ? null : cursors[(n - 1) % cursors.Length]));
        using var cambio = Fixtures.Client(server.Url);

        var ids = new List<string>();
        var error = await Assert.ThrowsAsync<InvalidResponseException>(async () =>
        {
            await foreach (var conversion in cambio.Conversions.ListAutoPagingAsync(new ListOptions { Limit = 1 })) ids.Add(conversion.Id);
        });

        Assert.Equal("INVALID_RESPONSE", error.Code);
        Assert.Contains(repeated, error.Message);
        Assert.Equal(Enumerable.Range(1, cursors.Length).Select(n => "cnv_" + n), ids);
        Assert.Equal(cursors.Length, server.Requests.Count);
    }

    [Fact]
    public async Task ListAutoPagingAsync_from_a_cursor_throws_when_a_page_answers_that_cursor()
    {
        await using var server = new ScriptedServer((_, n) => Json.Page(new[] { Fixtures.Conversion("cnv_" + n) }, n > 3 ? null : "c7"));
        using var cambio = Fixtures.Client(server.Url);

        var ids = new List<string>();
        await Assert.ThrowsAsync<InvalidResponseException>(async () =>
        {
            await foreach (var conversion in cambio.Conversions.ListAutoPagingAsync(new ListOptions { Limit = 1, Cursor = "c7" })) ids.Add(conversion.Id);
        });

        Assert.Equal(new[] { "cnv_1" }, ids);
        Assert.Equal(new[] { "/v1/conversions?limit=1&cursor=c7" }, server.Requests.Select(s => s.Target));
    }

    [Fact]
    public async Task ListAutoPagingAsync_fetches_a_page_only_when_the_loop_reaches_it()
    {
        await using var server = ThreePages();
        using var cambio = Fixtures.Client(server.Url);

        var walk = cambio.Conversions.ListAutoPagingAsync(new ListOptions { Limit = 2 });
        Assert.Empty(server.Requests);
        await foreach (var conversion in walk)
        {
            if (conversion.Id == "cnv_4") break;
        }

        Assert.Single(server.Requests);
    }
}
