package io.kraft.broker.metrics;

import io.kraft.broker.protocol.ApiKey;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Kafka's {@code kafka.network:type=RequestMetrics} per API: requests per second and where a request's time went:
 * waiting for a handler thread (RequestQueueTimeMs), in its handler (LocalTimeMs), waiting for others (RemoteTimeMs:
 * replication for acks=all, a fetch's min bytes, the controller), waiting for its turn and being written
 * (ResponseSendTimeMs), and all of it (TotalTimeMs). As in Kafka, Fetch counts as FetchConsumer or FetchFollower
 * (a replica's fetch), and RequestsPerSec is also tagged with the request's version. An API's metrics are created on
 * its first request.
 */
public final class RequestMetrics {
    private static final String DOMAIN = "kafka.network";
    private static final String TYPE = "RequestMetrics";

    /** The slot of FetchFollower, past every API id. */
    private static final int FETCH_FOLLOWER_SLOT = 128;

    private final KafkaMetrics metrics;
    private final AtomicReferenceArray<ApiMetrics> byApi = new AtomicReferenceArray<>(FETCH_FOLLOWER_SLOT + 1);

    public RequestMetrics(KafkaMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Records one request's times, each an instant from {@link System#nanoTime()}.
     *
     * @param followerFetch whether it is a Fetch from a replica (counted as FetchFollower)
     */
    public void record(ApiKey api, short version, boolean followerFetch, long receivedNanos, long startedNanos,
                       long handlerReturnedNanos, long completedNanos, long sentNanos) {
        ApiMetrics api1 = forApi(api, followerFetch);
        api1.requests(version).mark();
        api1.queue.updateNanos(receivedNanos, startedNanos);
        api1.local.updateNanos(startedNanos, handlerReturnedNanos);
        api1.remote.updateNanos(handlerReturnedNanos, completedNanos);
        api1.send.updateNanos(completedNanos, sentNanos);
        api1.total.updateNanos(receivedNanos, sentNanos);
    }

    private ApiMetrics forApi(ApiKey api, boolean followerFetch) {
        int slot = api == ApiKey.FETCH && followerFetch ? FETCH_FOLLOWER_SLOT : api.id();
        ApiMetrics existing = byApi.get(slot);
        if (existing != null) {
            return existing;
        }
        String request = api != ApiKey.FETCH ? api.apiName() : followerFetch ? "FetchFollower" : "FetchConsumer";
        ApiMetrics created = new ApiMetrics(metrics, request);
        return byApi.compareAndSet(slot, null, created) ? created : byApi.get(slot);
    }

    /** The metrics of one API. */
    private static final class ApiMetrics {
        private final KafkaMetrics metrics;
        private final String request;
        /** RequestsPerSec per version, created on a version's first request (served versions are all far below 64). */
        private final AtomicReferenceArray<Meter> requestsByVersion = new AtomicReferenceArray<>(64);
        final Timer queue;
        final Timer local;
        final Timer remote;
        final Timer send;
        final Timer total;

        ApiMetrics(KafkaMetrics metrics, String request) {
            this.metrics = metrics;
            this.request = request;
            queue = metrics.timer(name("RequestQueueTimeMs", request), "Time a request waited for a handler thread");
            local = metrics.timer(name("LocalTimeMs", request), "Time a request spent in its handler");
            remote = metrics.timer(name("RemoteTimeMs", request),
                    "Time a request waited for others (replication, fetch min bytes, the controller)");
            send = metrics.timer(name("ResponseSendTimeMs", request),
                    "Time from a request's answer to its write (including its turn behind earlier answers)");
            total = metrics.timer(name("TotalTimeMs", request), "Time from a request's arrival to its answer's write");
        }

        Meter requests(short version) {
            if (version < 0 || version >= requestsByVersion.length()) {
                throw new IllegalArgumentException(request + " version " + version + " is not one a client can send");
            }
            Meter existing = requestsByVersion.get(version);
            if (existing != null) {
                return existing;
            }
            Meter created = metrics.meter(name("RequestsPerSec", request).tagged("version", Short.toString(version)),
                    "requests", "Requests received, per API and version");
            return requestsByVersion.compareAndSet(version, null, created) ? created : requestsByVersion.get(version);
        }

        private static MetricName name(String name, String request) {
            return MetricName.of(DOMAIN, TYPE, name).tagged("request", request);
        }
    }
}
