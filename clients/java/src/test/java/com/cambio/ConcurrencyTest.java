package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.model.Withdrawal;
import com.cambio.param.WithdrawalCreateParams;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One client instance shared by 16 threads: every call gets its own answer and its own key. */
class ConcurrencyTest {
  @Test
  void oneClientIsSafeToShareAcrossThreads() throws Exception {
    Set<String> failedOnce = java.util.concurrent.ConcurrentHashMap.newKeySet();
    try (ScriptedServer server = new ScriptedServer((req, n) -> {
      // About a third of the calls fail their first try, so retries run concurrently too; the
      // answer echoes the reference.
      String reference = req.body().replaceAll(".*\"reference\":\"([^\"]+)\".*", "$1");
      if (n % 3 == 0 && failedOnce.add(req.header("Idempotency-Key"))) return ScriptedServer.failure(503, "INTERNAL_ERROR");
      return ScriptedServer.created(Fixtures.WITHDRAWAL.replace("payout-1", reference));
    })) {
      CambioClient cambio = server.client().maxRetries(2).build();
      int threads = 16;
      int callsEach = 8;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<String>>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        Callable<List<String>> work = () -> {
          start.await();
          List<String> references = new ArrayList<>();
          for (int i = 0; i < callsEach; i++) {
            Withdrawal w = cambio.withdrawals().create(WithdrawalCreateParams.builder().network("tron").address("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK").amount("5").reference("t" + thread + "-" + i).build());
            references.add(w.reference());
          }
          return references;
        };
        results.add(pool.submit(work));
      }
      start.countDown();
      for (int t = 0; t < threads; t++) {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < callsEach; i++) expected.add("t" + t + "-" + i);
        assertEquals(expected, results.get(t).get());
      }
      pool.shutdown();

      // Each logical call kept one key across its retries, and no two calls shared one.
      Set<String> keys = new HashSet<>();
      for (ScriptedServer.Seen seen : server.seen()) {
        String reference = seen.body().replaceAll(".*\"reference\":\"([^\"]+)\".*", "$1");
        keys.add(reference + " " + seen.header("Idempotency-Key"));
      }
      assertEquals(threads * callsEach, keys.size());
      assertEquals(threads * callsEach, keys.stream().map(k -> k.split(" ")[1]).distinct().count());
      assertEquals(threads * callsEach + failedOnce.size(), server.seen().size());
      assertTrue(failedOnce.size() > 0);
    }
  }
}
