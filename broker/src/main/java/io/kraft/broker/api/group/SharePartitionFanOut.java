package io.kraft.broker.api.group;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The loop both share-state APIs (KIP-932) make over a request's topics and partitions: each partition is refused at
 * once or answered when its coordinator call completes, into its topic's result.
 */
final class SharePartitionFanOut {
    private SharePartitionFanOut() {
    }

    /**
     * Answers every partition of every topic.
     *
     * @param resultsOf  adds a topic's result to the response and returns the list its partitions' results go to
     * @param refusal    a partition's result when the request cannot be served for it, else null
     * @param call       the coordinator's answer for a partition of a topic
     * @return completes once every partition's result is in its list
     */
    static <T, P, R> CompletableFuture<Void> answer(List<T> topics, Function<T, List<P>> partitionsOf,
                                                    Function<T, List<R>> resultsOf, Function<P, R> refusal,
                                                    BiFunction<T, P, CompletableFuture<R>> call) {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (T topic : topics) {
            List<R> results = resultsOf.apply(topic);
            for (P partition : partitionsOf.apply(topic)) {
                R refused = refusal.apply(partition);
                if (refused != null) {
                    add(results, refused);
                } else {
                    // completions arrive on the coordinator's thread while this loop still adds refusals
                    pending.add(call.apply(topic, partition).thenAccept(result -> add(results, result)));
                }
            }
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new));
    }

    private static <R> void add(List<R> results, R result) {
        synchronized (results) {
            results.add(result);
        }
    }
}
