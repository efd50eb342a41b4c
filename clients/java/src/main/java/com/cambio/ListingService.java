package com.cambio;

import com.cambio.param.ListParams;
import com.cambio.param.Params;

/**
 * A {@link ResourceService} whose route also lists its records, newest first: {@code GET
 * /v1/<group>} answers one {@link Page} (conversions and webhooks).
 */
abstract class ListingService<T, P extends Params, C> extends ResourceService<T, P, C> {
  ListingService(CambioClient client, String route, Class<T> type, Class<C> createdType) {
    super(client, route, type, createdType);
  }

  /** {@code GET /v1/<group>}: the first page, newest first (20 items). */
  public Page<T> list() {
    return list(null, null);
  }

  /** {@code GET /v1/<group>}: one page; {@link Page#autoPagingIterable()} walks them all. */
  public Page<T> list(ListParams params) {
    return list(params, null);
  }

  /** As {@code list(params)}, with per-call options. */
  public Page<T> list(ListParams params, RequestOptions options) {
    return client.page(route, params, options, type);
  }
}
