package io.kraft.broker.quota;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.protocol.message.FetchResponse;
import io.kraft.broker.protocol.message.ProduceResponse;
import io.kraft.broker.security.KafkaPrincipal;
import io.kraft.metadata.image.ClientQuotasImage;
import io.kraft.metadata.quota.ClientQuotaKeys;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The broker's byte-rate quotas on the request path: a Produce request's size counts against
 * {@code producer_byte_rate}, a consumer Fetch response's size against {@code consumer_byte_rate} (a follower's fetch
 * does not count). The answer carries the throttle time in {@code throttle_time_ms}; the connection then stops reading
 * for that long (KIP-219). With no quota in the metadata, {@link #active()} is false and nothing else runs.
 */
public final class ClientQuotas {
    private final Supplier<ClientQuotasImage> image;
    private final ClientQuotaManager produce;
    private final ClientQuotaManager fetch;

    public ClientQuotas(Supplier<ClientQuotasImage> image, QuotaWindows windows, LongSupplier clock,
                        KafkaMetrics metrics) {
        this.image = image;
        this.produce = new ClientQuotaManager(ClientQuotaKeys.PRODUCER_BYTE_RATE, image, windows, clock,
                publisher(metrics, "Produce", clock));
        this.fetch = new ClientQuotaManager(ClientQuotaKeys.CONSUMER_BYTE_RATE, image, windows, clock,
                publisher(metrics, "Fetch", clock));
    }

    /** Whether any client quota is set: the only cost the request path pays when none is. */
    public boolean active() {
        return !image.get().isEmpty();
    }

    /** Whether this API's answers may be throttled by these quotas (a cheap test before anything is measured). */
    public static boolean throttles(ApiKey api) {
        return api == ApiKey.PRODUCE || api == ApiKey.FETCH;
    }

    /**
     * Records the request (Produce: its size) or its answer (Fetch: the response's size) against the client's quota
     * and sets the answer's {@code throttle_time_ms}; returns the throttle time (ms), 0 when within quota.
     *
     * @param response the answer's body, or null for a Produce with acks=0 (no answer)
     */
    public int throttle(ApiRequest<ApiMessage> request, int requestBytes, KafkaPrincipal principal,
                        ApiMessage response) {
        String clientId = request.header().clientId();
        String user = principal.name();
        if (request.api() == ApiKey.PRODUCE) {
            int throttleMs = produce.recordAndGetThrottleMs(user, clientId, requestBytes);
            if (throttleMs > 0 && response instanceof ProduceResponse produceResponse) {
                produceResponse.setThrottleTimeMs(Math.max(throttleMs, produceResponse.throttleTimeMs()));
            }
            return throttleMs;
        }
        if (response instanceof FetchResponse fetchResponse && !fromFollower(request)) {
            int throttleMs = fetch.recordAndGetThrottleMs(user, clientId, response.size(request.version()));
            if (throttleMs > 0) {
                fetchResponse.setThrottleTimeMs(Math.max(throttleMs, fetchResponse.throttleTimeMs()));
            }
            return throttleMs;
        }
        return 0;
    }

    public ClientQuotaManager produce() {
        return produce;
    }

    public ClientQuotaManager fetch() {
        return fetch;
    }

    private static boolean fromFollower(ApiRequest<ApiMessage> request) {
        FetchRequest body = (FetchRequest) request.body();
        int replicaId = request.version() >= 15 ? body.replicaState().replicaId() : body.replicaId();
        return replicaId >= 0;
    }

    private static MetricName name(String type, String name, String user, String clientId) {
        return MetricName.of("kafka.server", type, name).tagged("user", user).tagged("client-id", clientId);
    }

    /** Kafka's per-client quota metrics: {@code kafka.server:type=Produce|Fetch,user=..,client-id=..}. */
    private static ClientQuotaManager.SensorListener publisher(KafkaMetrics metrics, String type,
                                                              LongSupplier clock) {
        if (metrics == null) {
            return ClientQuotaManager.SensorListener.NONE;
        }
        return new ClientQuotaManager.SensorListener() {
            @Override
            public void sensorCreated(String user, String clientId, ClientQuotaManager.Sensor sensor) {
                metrics.gauge(name(type, "byte-rate", user, clientId),
                        "Bytes per second of the clients this quota groups",
                        () -> ClientQuotaManager.perSecond(sensor, clock.getAsLong()));
                metrics.gauge(name(type, "throttle-time", user, clientId),
                        "Average throttle time (ms) of the clients this quota groups",
                        () -> ClientQuotaManager.averageThrottleMs(sensor, clock.getAsLong()));
            }

            @Override
            public void sensorExpired(String user, String clientId) {
                metrics.remove(name(type, "byte-rate", user, clientId));
                metrics.remove(name(type, "throttle-time", user, clientId));
            }
        };
    }
}
