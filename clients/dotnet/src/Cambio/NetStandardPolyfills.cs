#if NETSTANDARD2_0
using System;
using System.Net.Http;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

// The framework calls the client makes that netstandard2.0 lacks, each doing what the newer framework's
// does, so the client's code reads the same on every target. The C# attributes (init, required,
// records, ranges, nullability) come from PolySharp; the types System.Text.Json, IAsyncEnumerable and
// TimeProvider from their packages (Cambio.csproj).

namespace System.Security.Cryptography
{
    internal static class CryptographicOperations
    {
        /// <summary>Compares in time that depends on the length only, not on where the bytes differ.</summary>
        [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
        public static bool FixedTimeEquals(ReadOnlySpan<byte> left, ReadOnlySpan<byte> right)
        {
            if (left.Length != right.Length) return false;
            var difference = 0;
            for (var i = 0; i < left.Length; i++) difference |= left[i] ^ right[i];
            return difference == 0;
        }
    }
}

namespace Cambio
{
    internal static class NetStandardPolyfills
    {
        [ThreadStatic]
        private static Random? s_random;

        extension(Random)
        {
            /// <summary>One generator per thread (a <see cref="Random"/> is not thread-safe here), seeded apart.</summary>
            public static Random Shared => s_random ??= new Random(Guid.NewGuid().GetHashCode());
        }

        extension(HMACSHA256)
        {
            public static byte[] HashData(byte[] key, byte[] source)
            {
                using var hmac = new HMACSHA256(key);
                return hmac.ComputeHash(source);
            }
        }

        extension(Convert)
        {
            public static bool TryFromBase64String(string s, Span<byte> bytes, out int bytesWritten)
            {
                bytesWritten = 0;
                byte[] decoded;
                try
                {
                    decoded = Convert.FromBase64String(s);
                }
                catch (FormatException)
                {
                    return false;
                }
                if (decoded.Length > bytes.Length) return false;
                decoded.CopyTo(bytes);
                bytesWritten = decoded.Length;
                return true;
            }
        }

        extension(string text)
        {
            public bool Contains(char value) => text.IndexOf(value) >= 0;

            public string[] Split(char separator, StringSplitOptions options) => text.Split(new[] { separator }, options);

            public int GetHashCode(StringComparison comparison) => comparison switch
            {
                StringComparison.Ordinal => StringComparer.Ordinal.GetHashCode(text),
                StringComparison.OrdinalIgnoreCase => StringComparer.OrdinalIgnoreCase.GetHashCode(text),
                StringComparison.InvariantCulture => StringComparer.InvariantCulture.GetHashCode(text),
                StringComparison.InvariantCultureIgnoreCase => StringComparer.InvariantCultureIgnoreCase.GetHashCode(text),
                StringComparison.CurrentCulture => StringComparer.CurrentCulture.GetHashCode(text),
                _ => StringComparer.CurrentCultureIgnoreCase.GetHashCode(text),
            };
        }

        extension(Encoding encoding)
        {
            public string GetString(ReadOnlySpan<byte> bytes) => encoding.GetString(bytes.ToArray());
        }

        extension(HttpContent content)
        {
            /// <summary>Reads the body, stopped by the token: the older read takes none, so the token disposes the content.</summary>
            public async Task<byte[]> ReadAsByteArrayAsync(CancellationToken cancellationToken)
            {
                using (cancellationToken.Register(content.Dispose))
                {
                    try
                    {
                        return await content.ReadAsByteArrayAsync().ConfigureAwait(false);
                    }
                    catch (Exception error) when (cancellationToken.IsCancellationRequested)
                    {
                        throw new OperationCanceledException("The read was cancelled", error, cancellationToken);
                    }
                }
            }
        }
    }
}
#endif
