package com.cambio;

import com.cambio.param.Params;

/**
 * The plumbing of a group whose records the API creates and reads back by id: {@code POST
 * /v1/<group>} and {@code GET /v1/<group>/:id}, each with and without {@link RequestOptions}.
 * Deposits, withdrawals, conversions and webhooks share it ({@link ListingService} adds the list),
 * so a group is its route and types plus what only it does.
 *
 * @param <T> the record the group reads back
 * @param <P> the params that create one
 * @param <C> the record a creation answers: {@code T}, but for a webhook a {@code CreatedWebhook},
 *     which carries its secret
 */
abstract class ResourceService<T, P extends Params, C> extends ApiService {
  final String route;
  final Class<T> type;
  private final Class<C> createdType;

  ResourceService(CambioClient client, String route, Class<T> type, Class<C> createdType) {
    super(client);
    this.route = route;
    this.type = type;
    this.createdType = createdType;
  }

  /**
   * Creates one: {@code POST /v1/<group>}, with an {@code Idempotency-Key}: a fresh UUID v4 unless
   * {@link RequestOptions} gives one, the same on every retry of this call, so a retried creation
   * is replayed by the API, never made twice.
   */
  public C create(P params) {
    return create(params, null);
  }

  /** As {@code create(params)}, with per-call options (your own Idempotency-Key, maxRetries). */
  public C create(P params, RequestOptions options) {
    return client.request("POST", route, params, options, createdType);
  }

  /** Reads one by its id: {@code GET /v1/<group>/:id}. */
  public T get(String id) {
    return get(id, null);
  }

  /** As {@code get(id)}, with per-call options. */
  public T get(String id, RequestOptions options) {
    return client.request("GET", byId(id), null, options, type);
  }

  /** The route of the record {@code id} (URL-encoded; refused when null or empty). */
  String byId(String id) {
    return route + "/" + CambioClient.segment(id);
  }
}
