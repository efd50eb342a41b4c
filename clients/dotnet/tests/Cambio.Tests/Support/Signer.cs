using System.Security.Cryptography;
using System.Text;

namespace Cambio.Tests.Support;

/// <summary>Signs a delivery the way Cambio does (Standard Webhooks), for tests.</summary>
public static class Signer
{
    public const string Secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    public static Dictionary<string, string> Headers(string body, DateTimeOffset at, string id = "evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X", string secret = Secret)
    {
        var timestamp = at.ToUnixTimeSeconds().ToString();
        var key = Convert.FromBase64String(secret["whsec_".Length..]);
        var signature = Convert.ToBase64String(HMACSHA256.HashData(key, Encoding.UTF8.GetBytes($"{id}.{timestamp}.{body}")));
        return new Dictionary<string, string> { ["webhook-id"] = id, ["webhook-timestamp"] = timestamp, ["webhook-signature"] = "v1," + signature };
    }

    public const string DepositCompleted =
        """{"id":"evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X","type":"deposit.completed","createdAt":"2026-01-01T00:00:00.000Z","data":{"id":"dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J","method":"usdt","reference":"order-1","network":"tron","address":"TJRabPrwbZy45sbavfcjinPJC18kjpRTv8","amount":"25.000000","receivedAmount":"25.000000","creditedAmount":"25.000000","amountStatus":"exact","status":"completed","holdReason":null,"confirmations":19,"requiredConfirmations":19,"transactions":[],"split":null,"expiresAt":"2026-01-02T00:00:00.000Z","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z","note":"Olá"}}""";
}
