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
