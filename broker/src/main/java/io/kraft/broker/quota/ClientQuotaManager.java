package io.kraft.broker.quota;

import io.kraft.metadata.image.ClientQuotasImage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * One kind of client quota on the broker (produce bytes, fetch bytes): resolves the quota of a (user, client id),
 * records what the client used in that quota's rate, and answers how long the client must wait to be back under it
 * ({@code (rate - bound) / bound * window}, as in Kafka). Clients without a quota record nothing. Thread-safe.
 */
public final class ClientQuotaManager {
    /** A (user, client id) pair; the cache of resolutions is per image, so a changed quota is seen at once. */
    private record Client(String user, String clientId) {
    }

    /** A rate shared by the clients a quota groups (by the metric tags), with the throttle times it handed out. */
    public static final class Sensor {
        final WindowedRate rate;
        final WindowedRate throttleMs;
        final WindowedRate throttles;

        Sensor(QuotaWindows windows, long nowMs) {
            this.rate = new WindowedRate(windows, nowMs);
            this.throttleMs = new WindowedRate(windows, nowMs);
            this.throttles = new WindowedRate(windows, nowMs);
        }
    }

    private record Resolutions(ClientQuotasImage image, Map<Client, QuotaResolution> byClient) {
    }

    private static final QuotaResolution NONE = new QuotaResolution(Double.NaN, "", "");

    private final String key;
    private final Supplier<ClientQuotasImage> image;
    private final QuotaWindows windows;
    private final LongSupplier clock;
    private final Map<String, Sensor> sensors = new ConcurrentHashMap<>();
    private final SensorListener listener;
    private volatile Resolutions resolutions = new Resolutions(ClientQuotasImage.EMPTY, new ConcurrentHashMap<>());

    /** Told when a rate of a new (user, client id) tag pair starts, to publish its metrics. */
    public interface SensorListener {
        void sensorCreated(String userTag, String clientIdTag, Sensor sensor);

        SensorListener NONE = (user, clientId, sensor) -> { };
    }

    public ClientQuotaManager(String key, Supplier<ClientQuotasImage> image, QuotaWindows windows, LongSupplier clock,
                              SensorListener listener) {
        this.key = key;
        this.image = image;
        this.windows = windows;
        this.clock = clock;
        this.listener = listener;
    }

    /** The quota key this manager enforces (e.g. {@code producer_byte_rate}). */
    public String key() {
        return key;
    }

    /**
     * Records {@code value} for the client and returns how long (ms) it must now be throttled, 0 if it is within its
     * quota or has none.
     */
    public int recordAndGetThrottleMs(String user, String clientId, double value) {
        QuotaResolution quota = resolve(user, clientId == null ? "" : clientId);
        if (quota == NONE) {
            return 0;
        }
        long nowMs = clock.getAsLong();
        Sensor sensor = sensor(quota, nowMs);
        sensor.rate.record(value, nowMs);
        double rate = sensor.rate.perSecond(nowMs);
        int throttleMs = 0;
        if (rate > quota.bound()) {
            double windowMs = sensor.rate.windowMs(nowMs);
            throttleMs = (int) Math.min(Integer.MAX_VALUE, Math.round((rate - quota.bound()) / quota.bound()
                    * windowMs));
        }
        sensor.throttleMs.record(throttleMs, nowMs);
        sensor.throttles.record(1, nowMs);
        return throttleMs;
    }

    /** The rate (per second) of the quota the client falls under, or 0 if it has none (for tests and tools). */
    public double rate(String user, String clientId) {
        QuotaResolution quota = resolve(user, clientId);
        Sensor sensor = quota == NONE ? null : sensors.get(tags(quota));
        return sensor == null ? 0 : sensor.rate.perSecond(clock.getAsLong());
    }

    private QuotaResolution resolve(String user, String clientId) {
        ClientQuotasImage current = image.get();
        Resolutions cached = resolutions;
        if (cached.image() != current) {
            cached = new Resolutions(current, new ConcurrentHashMap<>());
            resolutions = cached;
        }
        return cached.byClient().computeIfAbsent(new Client(user, clientId), client -> {
            QuotaResolution found = QuotaResolution.resolve(current, key, client.user(), client.clientId());
            return found == null ? NONE : found;
        });
    }

    private Sensor sensor(QuotaResolution quota, long nowMs) {
        String tags = tags(quota);
        Sensor sensor = sensors.get(tags);
        if (sensor == null) {
            Sensor created = new Sensor(windows, nowMs);
            sensor = sensors.putIfAbsent(tags, created);
            if (sensor == null) {
                sensor = created;
                listener.sensorCreated(quota.userTag(), quota.clientIdTag(), created);
            }
        }
        return sensor;
    }

    private static String tags(QuotaResolution quota) {
        return quota.userTag().length() + ":" + quota.userTag() + quota.clientIdTag();
    }

    /** The average throttle time (ms) the sensor handed out recently. */
    public static double averageThrottleMs(Sensor sensor, long nowMs) {
        double count = sensor.throttles.perSecond(nowMs);
        return count == 0 ? 0 : sensor.throttleMs.perSecond(nowMs) / count;
    }

    /** The sensor's rate (per second). */
    public static double perSecond(Sensor sensor, long nowMs) {
        return sensor.rate.perSecond(nowMs);
    }
}
