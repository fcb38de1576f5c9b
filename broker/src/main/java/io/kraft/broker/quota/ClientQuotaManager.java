package io.kraft.broker.quota;

import io.kraft.metadata.image.ClientQuotasImage;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind of client quota on the broker (produce bytes, fetch bytes): resolves the quota of a (user, client id),
 * records what the client used in that quota's rate, and answers how long the client must wait to be back under it
 * ({@code (rate - bound) / bound * window}, as in Kafka). Clients without a quota record nothing. Thread-safe.
 */
public final class ClientQuotaManager {
    private static final Logger LOG = LoggerFactory.getLogger(ClientQuotaManager.class);
    /** A (user, client id) pair; the cache of resolutions is per image, so a changed quota is seen at once. */
    private record Client(String user, String clientId) {
    }

    /** A rate shared by the clients a quota groups (by the metric tags), with the throttle times it handed out. */
    public static final class Sensor {
        final WindowedRate rate;
        final WindowedRate throttleMs;
        final WindowedRate throttles;
        /** When the sensor last recorded; one idle for {@link #SENSOR_EXPIRY_MS} is dropped with its metrics. */
        volatile long lastRecordMs;

        Sensor(QuotaWindows windows, long nowMs) {
            this.lastRecordMs = nowMs;
            this.rate = new WindowedRate(windows, nowMs);
            this.throttleMs = new WindowedRate(windows, nowMs);
            this.throttles = new WindowedRate(windows, nowMs);
        }
    }

    private record Resolutions(ClientQuotasImage image, Map<Client, QuotaResolution> byClient) {
    }

    private static final QuotaResolution NONE = new QuotaResolution(Double.NaN, "", "");
    /** Kafka drops a quota sensor idle for an hour, so clients that come and go do not add up. */
    static final long SENSOR_EXPIRY_MS = 3_600_000;
    /** Resolutions cached per image at most; beyond, the cache starts again (each entry is cheap to redo). */
    private static final int MAX_CACHED_RESOLUTIONS = 10_000;

    private final String key;
    private final int maxThrottleMs;
    private final Supplier<ClientQuotasImage> image;
    private final QuotaWindows windows;
    private final LongSupplier clock;
    private final Map<String, Sensor> sensors = new ConcurrentHashMap<>();
    private final SensorListener listener;
    private volatile long nextSweepMs;
    private volatile Resolutions resolutions = new Resolutions(ClientQuotasImage.EMPTY, new ConcurrentHashMap<>());

    /** Told when a rate of a new (user, client id) tag pair starts, to publish its metrics. */
    public interface SensorListener {
        void sensorCreated(String userTag, String clientIdTag, Sensor sensor);

        /** The sensor of these tags was dropped after being idle; its metrics should go. */
        default void sensorExpired(String userTag, String clientIdTag) {
        }

        SensorListener NONE = (user, clientId, sensor) -> { };
    }

    public ClientQuotaManager(String key, Supplier<ClientQuotasImage> image, QuotaWindows windows, LongSupplier clock,
                              SensorListener listener) {
        this(key, image, windows, clock, listener, Integer.MAX_VALUE);
    }

    /** @param maxThrottleMs the longest throttle handed out (Kafka caps a request-time throttle at one window) */
    public ClientQuotaManager(String key, Supplier<ClientQuotasImage> image, QuotaWindows windows, LongSupplier clock,
                              SensorListener listener, int maxThrottleMs) {
        this.maxThrottleMs = maxThrottleMs;
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
        if (nowMs >= nextSweepMs) {
            expireIdleSensors(nowMs);
        }
        Sensor sensor = sensor(quota, nowMs);
        sensor.lastRecordMs = nowMs;
        sensor.rate.record(value, nowMs);
        double rate = sensor.rate.perSecond(nowMs);
        int throttleMs = 0;
        if (rate > quota.bound()) {
            double windowMs = sensor.rate.windowMs(nowMs);
            throttleMs = (int) Math.min(maxThrottleMs, Math.round((rate - quota.bound()) / quota.bound()
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
        if (cached.image() != current || cached.byClient().size() >= MAX_CACHED_RESOLUTIONS) {
            cached = new Resolutions(current, new ConcurrentHashMap<>());
            resolutions = cached;
        }
        return cached.byClient().computeIfAbsent(new Client(user, clientId), client -> {
            QuotaResolution found = QuotaResolution.resolve(current, key, client.user(), client.clientId());
            return found == null ? NONE : found;
        });
    }

    /** Sensors that exist now (for tests). */
    int sensorCount() {
        return sensors.size();
    }

    private synchronized void expireIdleSensors(long nowMs) {
        if (nowMs < nextSweepMs) {
            return;
        }
        nextSweepMs = nowMs + SENSOR_EXPIRY_MS / 60;
        sensors.entrySet().removeIf(entry -> {
            if (nowMs - entry.getValue().lastRecordMs < SENSOR_EXPIRY_MS) {
                return false;
            }
            String[] tags = untag(entry.getKey());
            listener.sensorExpired(tags[0], tags[1]);
            return true;
        });
    }

    private static String[] untag(String tags) {
        int colon = tags.indexOf(':');
        int userLength = Integer.parseInt(tags.substring(0, colon));
        return new String[] {tags.substring(colon + 1, colon + 1 + userLength), tags.substring(colon + 1 + userLength)};
    }

    private Sensor sensor(QuotaResolution quota, long nowMs) {
        String tags = tags(quota);
        Sensor sensor = sensors.get(tags);
        if (sensor == null) {
            Sensor created = new Sensor(windows, nowMs);
            sensor = sensors.putIfAbsent(tags, created);
            if (sensor == null) {
                sensor = created;
                try {
                    listener.sensorCreated(quota.userTag(), quota.clientIdTag(), created);
                } catch (RuntimeException e) {
                    // Metrics are a view: a name JMX refuses must not lift the quota.
                    LOG.warn("No metrics for the {} quota of user '{}' client '{}': {}", key, quota.userTag(),
                            quota.clientIdTag(), e.toString());
                }
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
