using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace Cambio.Tests;

public class ReadmeExamplesTests
{
    [Fact]
    public void Every_csharp_block_of_the_README_is_compiled_in_ReadmeExamples()
    {
        var readme = File.ReadAllText(Path.Combine(Fixtures.ClientDir, "README.md"));
        var examples = Lines(File.ReadAllText(Path.Combine(Fixtures.ClientDir, "tests", "Cambio.Tests", "ReadmeExamples.cs")));
        var blocks = Regex.Matches(readme, "```csharp\n(.*?)```", RegexOptions.Singleline).Select(m => m.Groups[1].Value).ToList();

        Assert.True(blocks.Count >= 6, $"only {blocks.Count} csharp blocks in README.md");
        foreach (var block in blocks)
        {
            var lines = Lines(block);
            var found = Enumerable.Range(0, examples.Length - lines.Length + 1).Any(start => lines.SequenceEqual(examples.Skip(start).Take(lines.Length)));
            Assert.True(found, "README block not in ReadmeExamples.cs (keep them the same):\n" + block);
        }
    }

    private static string[] Lines(string text) =>
        text.Split('\n').Select(l => l.Trim()).Where(l => l.Length > 0).ToArray();

    [Fact]
    public async Task The_ASP_NET_Core_receiver_accepts_a_signed_delivery_and_refuses_a_tampered_one()
    {
        var app = ReadmeExamples.WebhookReceiver(new[]
        {
            "--urls=http://127.0.0.1:0", "--Logging:LogLevel:Default=Warning",
            "--Cambio:ApiKey=ck_test_k", "--Cambio:ApiSecret=cs_test_s", "--Cambio:ApiUrl=http://127.0.0.1:1/v1",
            $"--Cambio:WebhookSecret={Signer.Secret}",
        });
        await app.StartAsync();
        try
        {
            var address = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
            using var http = new HttpClient();
            async Task<HttpStatusCode> Post(string body, System.Collections.Generic.Dictionary<string, string> headers)
            {
                using var request = new HttpRequestMessage(HttpMethod.Post, address + "/cambio/webhooks") { Content = new StringContent(body, Encoding.UTF8, "application/json") };
                foreach (var (name, value) in headers) request.Headers.TryAddWithoutValidation(name, value);
                using var response = await http.SendAsync(request);
                return response.StatusCode;
            }
            var body = Signer.DepositCompleted;
            var headers = Signer.Headers(body, DateTimeOffset.UtcNow);

            Assert.Equal(HttpStatusCode.NoContent, await Post(body, headers));
            Assert.Equal(HttpStatusCode.BadRequest, await Post(body.Replace("25.000000", "95.000000"), headers));
        }
        finally
        {
            await app.StopAsync();
            await app.DisposeAsync();
        }
    }
}
