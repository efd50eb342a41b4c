using System;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace Cambio;

/// <summary>
/// A money amount sent to the API: the API's decimal string (<c>"25"</c>, <c>"10.5"</c>). Assign a
/// <see cref="string"/> or a <see cref="decimal"/> (or an integer); a <see cref="double"/> does not
/// convert, so no binary float ever reaches a payment. Always serialised as a JSON string.
/// </summary>
[JsonConverter(typeof(DecimalStringJsonConverter))]
public sealed class DecimalString : IEquatable<DecimalString>
{
    /// <summary>Wraps the API's decimal string as given (the API validates it: at most 6 decimals for USDT).</summary>
    public DecimalString(string value)
    {
        if (value is null) throw new ArgumentNullException(nameof(value));
        Value = value;
    }

    /// <summary>Formats a decimal with the invariant culture, without the fraction's trailing zeros
    /// (<c>25.50m</c> → <c>"25.5"</c>, <c>25.00000000m</c> → <c>"25"</c>).</summary>
    public DecimalString(decimal value) => Value = WithoutTrailingZeros(value.ToString(CultureInfo.InvariantCulture));

    /// <summary>A decimal keeps its scale (a NUMERIC(20,8) column reads 25 back as <c>25.00000000m</c>), and the API
    /// refuses more than 6 decimals, zeros included. Only zeros go: a real 7th decimal is sent as it is, for the API
    /// to refuse, never rounded away here.</summary>
    private static string WithoutTrailingZeros(string invariant) =>
        invariant.IndexOf('.') < 0 ? invariant : invariant.TrimEnd('0').TrimEnd('.');

    /// <summary>The decimal string sent to the API.</summary>
    public string Value { get; }

    /// <summary>From a decimal string.</summary>
    [return: NotNullIfNotNull(nameof(value))]
    public static implicit operator DecimalString?(string? value) => value is null ? null : new DecimalString(value);

    /// <summary>From a decimal (invariant culture).</summary>
    public static implicit operator DecimalString(decimal value) => new(value);

    /// <inheritdoc/>
    public override string ToString() => Value;

    /// <inheritdoc/>
    public bool Equals(DecimalString? other) => other is not null && other.Value == Value;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is DecimalString other && Equals(other);

    /// <inheritdoc/>
    public override int GetHashCode() => Value.GetHashCode(StringComparison.Ordinal);
}

/// <summary>Reads and writes <see cref="DecimalString"/> as a JSON string.</summary>
public sealed class DecimalStringJsonConverter : JsonConverter<DecimalString>
{
    /// <inheritdoc/>
    public override DecimalString Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) =>
        reader.TokenType == JsonTokenType.String
            ? new DecimalString(reader.GetString()!)
            : throw new JsonException("A money amount must be a decimal string, never a JSON number");

    /// <inheritdoc/>
    public override void Write(Utf8JsonWriter writer, DecimalString value, JsonSerializerOptions options) => writer.WriteStringValue(value.Value);
}
