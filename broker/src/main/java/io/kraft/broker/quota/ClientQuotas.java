package io.kraft.broker.quota;

import io.kraft.broker.metrics.KafkaMetrics;
import io.kraft.broker.metrics.MetricName;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.security.KafkaPrincipal;
import io.kraft.metadata.image.ClientQuotasImage;
import io.kraft.metadata.quota.ClientQuotaKeys;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The broker's client quotas on the request path: a Produce request's size counts against
 * {@code producer_byte_rate}, a consumer Fetch response's size against {@code consumer_byte_rate}, every request's
 * handler time against {@code request_percentage} (a follower's fetch counts for none). The answer carries the throttle time in {@code throttle_time_ms}; the connection then stops reading
 * for that long (KIP-219). With no quota in the metadata, {@link #active()} is false and nothing else runs.
 */
public final class ClientQuotas {
    private final Supplier<ClientQuotasImage> image;
    private final ClientQuotaManager produce;
    private final ClientQuotaManager fetch;
    private final ClientQuotaManager request;
    /** A nanosecond of handler time as a percentage of one second of one thread. */
    private static final double PERCENT_PER_NANO = 100.0 / 1_000_000_000;

    public ClientQuotas(Supplier<ClientQuotasImage> image, QuotaWindows windows, LongSupplier clock,
                        KafkaMetrics metrics) {
        this.image = image;
        this.produce = new ClientQuotaManager(ClientQuotaKeys.PRODUCER_BYTE_RATE, image, windows, clock,
                publisher(metrics, "Produce", clock));
        this.fetch = new ClientQuotaManager(ClientQuotaKeys.CONSUMER_BYTE_RATE, image, windows, clock,
                publisher(metrics, "Fetch", clock));
        this.request = new ClientQuotaManager(ClientQuotaKeys.REQUEST_PERCENTAGE, image, windows, clock,
                publisher(metrics, "Request", clock), (int) windows.windowMs());
    }

    /** Whether any client quota is set: the only cost the request path pays when none is. */
    public boolean active() {
        return !image.get().isEmpty();
    }

    /**
     * Records the request against the client's quotas and raises the answer's {@code throttle_time_ms} to the longest
     * throttle it earned: a Produce request's size against {@code producer_byte_rate}, a consumer Fetch response's
     * size against {@code consumer_byte_rate}, and the handler time of any request but a follower's fetch against
     * {@code request_percentage} (percent of one thread over the windows). Returns the throttle time (ms), 0 when
     * the client is within its quotas.
     *
     * @param handlerNanos how long the handler's synchronous part ran on a handler thread
     * @param response the answer's body, or null for a Produce with acks=0 (no answer)
     */
    public int throttle(ApiRequest<ApiMessage> request, int requestBytes, long handlerNanos, KafkaPrincipal principal,
                        ApiMessage response) {
        String clientId = request.header().clientId();
        String user = principal.name();
        ApiKey api = request.api();
        int throttleMs = 0;
        if (api == ApiKey.PRODUCE) {
            throttleMs = produce.recordAndGetThrottleMs(user, clientId, requestBytes);
        } else if (api == ApiKey.FETCH && fromFollower(request)) {
            return 0;
        } else if (api == ApiKey.FETCH && response != null) {
            throttleMs = fetch.recordAndGetThrottleMs(user, clientId, response.size(request.version()));
        }
        throttleMs = Math.max(throttleMs, this.request.recordAndGetThrottleMs(user, clientId,
                handlerNanos * PERCENT_PER_NANO));
        if (throttleMs > 0 && response != null) {
            ThrottleTimes.raise(response, throttleMs);
        }
        return throttleMs;
    }

    public ClientQuotaManager produce() {
        return produce;
    }

    public ClientQuotaManager fetch() {
        return fetch;
    }

    public ClientQuotaManager request() {
        return request;
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
