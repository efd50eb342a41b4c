using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace Cambio.Tests.Support;

/// <summary>A request the scripted server received.</summary>
public sealed record Seen(string Method, string Target, IReadOnlyDictionary<string, string> Headers, byte[] Body, DateTimeOffset At)
{
    public string? Header(string name) => Headers.TryGetValue(name, out var value) ? value : null;
    public string Text => Encoding.UTF8.GetString(Body);
}

/// <summary>What the scripted server does with one request.</summary>
public abstract record Reply
{
    public static Reply Json(int status, object body, params (string Name, string Value)[] headers) =>
        new Answer(status, "application/json", JsonSerializer.Serialize(body), headers);

    public static Reply Raw(int status, string contentType, string body, params (string Name, string Value)[] headers) =>
        new Answer(status, contentType, body, headers);

    public static Reply Ok(object data) => Json(200, new { success = true, data });

    public static Reply Failure(int status, string code, string message = "refused", object? details = null, params (string Name, string Value)[] headers) =>
        Json(status, new { success = false, error = new { code, message, details } }, headers);

    /// <summary>Closes the connection without answering.</summary>
    public static readonly Reply Drop = new Dropped();

    /// <summary>Never answers (until the server is disposed).</summary>
    public static readonly Reply Hang = new Hanging();

    public sealed record Answer(int Status, string ContentType, string Body, (string Name, string Value)[] Headers) : Reply;
    public sealed record Dropped : Reply;
    public sealed record Hanging : Reply;
}

/// <summary>
/// A minimal HTTP/1.1 server on 127.0.0.1 and a free port (a raw TcpListener, so it can also drop
/// a connection or never answer) that records each request and answers as its script says.
/// </summary>
public sealed class ScriptedServer : IAsyncDisposable
{
    private readonly TcpListener _listener;
    private readonly Func<Seen, int, Reply> _script;
    private readonly CancellationTokenSource _stop = new();
    private readonly List<Seen> _seen = new();
    private readonly Task _loop;

    public ScriptedServer(Func<Seen, int, Reply> script) : this(0, script) { }

    /// <summary>On a given port of 127.0.0.1 (0: a free one), e.g. one a client was refused on a moment before.</summary>
    public ScriptedServer(int port, Func<Seen, int, Reply> script)
    {
        _listener = new(IPAddress.Loopback, port);
        _script = script;
        _listener.Start();
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _loop = Task.Run(AcceptLoop);
    }

    /// <summary>A server whose every answer is the same.</summary>
    public ScriptedServer(Reply always) : this((_, _) => always) { }

    public int Port { get; }

    public string Url => $"http://127.0.0.1:{Port}";

    public IReadOnlyList<Seen> Requests
    {
        get { lock (_seen) return _seen.ToList(); }
    }

    /// <summary>A port nothing listens on (bound, then released).</summary>
    public static int ClosedPort()
    {
        var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    private async Task AcceptLoop()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpClient client;
            try
            {
                client = await _listener.AcceptTcpClientAsync(_stop.Token);
            }
            catch (Exception) when (_stop.IsCancellationRequested)
            {
                return;
            }
            catch (SocketException)
            {
                return;
            }
            _ = Task.Run(() => Serve(client));
        }
    }

    private async Task Serve(TcpClient client)
    {
        using (client)
        {
            try
            {
                var stream = client.GetStream();
                var seen = await ReadRequest(stream);
                if (seen is null) return;
                int attempt;
                lock (_seen)
                {
                    _seen.Add(seen);
                    attempt = _seen.Count;
                }
                switch (_script(seen, attempt))
                {
                    case Reply.Dropped:
                        client.Client.LingerState = new LingerOption(true, 0);
                        client.Client.Close();
                        return;
                    case Reply.Hanging:
                        await Task.Delay(Timeout.Infinite, _stop.Token).ContinueWith(_ => { });
                        return;
                    case Reply.Answer answer:
                        var body = Encoding.UTF8.GetBytes(answer.Body);
                        var head = new StringBuilder($"HTTP/1.1 {answer.Status} Scripted\r\n");
                        if (answer.Status != 204) head.Append($"Content-Type: {answer.ContentType}\r\nContent-Length: {body.Length}\r\n");
                        head.Append("Connection: close\r\n");
                        foreach (var (name, value) in answer.Headers) head.Append($"{name}: {value}\r\n");
                        head.Append("\r\n");
                        await stream.WriteAsync(Encoding.ASCII.GetBytes(head.ToString()));
                        if (answer.Status != 204) await stream.WriteAsync(body);
                        await stream.FlushAsync();
                        client.Client.Shutdown(SocketShutdown.Send);
                        return;
                }
            }
            catch (Exception) when (_stop.IsCancellationRequested)
            {
            }
            catch (IOException)
            {
            }
            catch (SocketException)
            {
            }
        }
    }

    private static async Task<Seen?> ReadRequest(NetworkStream stream)
    {
        var buffer = new List<byte>();
        var chunk = new byte[8192];
        int headerEnd;
        while ((headerEnd = IndexOf(buffer, "\r\n\r\n"u8.ToArray())) < 0)
        {
            var read = await stream.ReadAsync(chunk);
            if (read == 0) return null;
            buffer.AddRange(chunk.AsSpan(0, read).ToArray());
        }
        var head = Encoding.ASCII.GetString(buffer.GetRange(0, headerEnd).ToArray()).Split("\r\n");
        var requestLine = head[0].Split(' ');
        var headers = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        foreach (var line in head.Skip(1))
        {
            var colon = line.IndexOf(':');
            if (colon <= 0) continue;
            var name = line[..colon].Trim();
            var value = line[(colon + 1)..].Trim();
            headers[name] = headers.TryGetValue(name, out var earlier) ? earlier + ", " + value : value;
        }
        var length = headers.TryGetValue("Content-Length", out var text) ? int.Parse(text) : 0;
        var body = buffer.Skip(headerEnd + 4).ToList();
        while (body.Count < length)
        {
            var read = await stream.ReadAsync(chunk);
            if (read == 0) break;
            body.AddRange(chunk.AsSpan(0, read).ToArray());
        }
        return new Seen(requestLine[0], requestLine[1], headers, body.ToArray(), DateTimeOffset.UtcNow);
    }

    private static int IndexOf(List<byte> haystack, byte[] needle)
    {
        for (var i = 0; i <= haystack.Count - needle.Length; i++)
        {
            var match = true;
            for (var j = 0; j < needle.Length && match; j++) match = haystack[i + j] == needle[j];
            if (match) return i;
        }
        return -1;
    }

    public async ValueTask DisposeAsync()
    {
        _stop.Cancel();
        _listener.Stop();
        try
        {
            await _loop;
        }
        catch (Exception)
        {
        }
        _stop.Dispose();
    }
}
