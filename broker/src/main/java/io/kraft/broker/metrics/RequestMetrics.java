package io.kraft.broker.metrics;

import io.kraft.broker.protocol.ApiKey;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Kafka's {@code kafka.network:type=RequestMetrics} per API: requests per second and where a request's time went:
 * waiting for a handler thread (RequestQueueTimeMs), in its handler (LocalTimeMs), waiting for others (RemoteTimeMs:
 * replication for acks=all, a fetch's min bytes, the controller), waiting for its turn and being written
 * (ResponseSendTimeMs), and all of it (TotalTimeMs). An API's metrics are created on its first request.
 */
public final class RequestMetrics {
    private static final String DOMAIN = "kafka.network";
    private static final String TYPE = "RequestMetrics";

    private final KafkaMetrics metrics;
    private final AtomicReferenceArray<ApiMetrics> byApi = new AtomicReferenceArray<>(128);

    public RequestMetrics(KafkaMetrics metrics) {
        this.metrics = metrics;
    }

    /** Records one request's times, each an instant from {@link System#nanoTime()}. */
    public void record(ApiKey api, long receivedNanos, long startedNanos, long handlerReturnedNanos,
                       long completedNanos, long sentNanos) {
        ApiMetrics api1 = forApi(api);
        api1.requests.mark();
        api1.queue.updateNanos(receivedNanos, startedNanos);
        api1.local.updateNanos(startedNanos, handlerReturnedNanos);
        api1.remote.updateNanos(handlerReturnedNanos, completedNanos);
        api1.send.updateNanos(completedNanos, sentNanos);
        api1.total.updateNanos(receivedNanos, sentNanos);
    }

    private ApiMetrics forApi(ApiKey api) {
        ApiMetrics existing = byApi.get(api.id());
        if (existing != null) {
            return existing;
        }
        ApiMetrics created = new ApiMetrics(metrics, api.apiName());
        return byApi.compareAndSet(api.id(), null, created) ? created : byApi.get(api.id());
    }

    /** The metrics of one API. */
    private static final class ApiMetrics {
        final Meter requests;
        final Timer queue;
        final Timer local;
        final Timer remote;
        final Timer send;
        final Timer total;

        ApiMetrics(KafkaMetrics metrics, String request) {
            requests = metrics.meter(name("RequestsPerSec", request), "requests", "Requests received, per API");
            queue = metrics.timer(name("RequestQueueTimeMs", request), "Time a request waited for a handler thread");
            local = metrics.timer(name("LocalTimeMs", request), "Time a request spent in its handler");
            remote = metrics.timer(name("RemoteTimeMs", request),
                    "Time a request waited for others (replication, fetch min bytes, the controller)");
            send = metrics.timer(name("ResponseSendTimeMs", request),
                    "Time from a request's answer to its write (including its turn behind earlier answers)");
            total = metrics.timer(name("TotalTimeMs", request), "Time from a request's arrival to its answer's write");
        }

        private static MetricName name(String name, String request) {
            return MetricName.of(DOMAIN, TYPE, name).tagged("request", request);
        }
    }
}
