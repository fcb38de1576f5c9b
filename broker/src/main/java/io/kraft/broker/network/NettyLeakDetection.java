package io.kraft.broker.network;

import io.netty.util.ResourceLeakDetector;
import java.util.function.UnaryOperator;

/**
 * Netty's buffer-leak detection level for a production node: off unless the system properties ask for one.
 *
 * <p>Netty samples one buffer in 128 by default and records where it was touched, which cost about 1.4 % of the
 * broker's CPU outside the JIT under produce load; Kafka's own network layer has nothing of the kind running.
 * Tests keep Netty's default (or the paranoid level of {@code LeakRecorder}): only {@code kraft-cli start} applies
 * this.
 */
public final class NettyLeakDetection {
    /** Netty's property for the level, and the name it read before 4.1. */
    static final String LEVEL_PROPERTY = "io.netty.leakDetection.level";
    static final String LEGACY_LEVEL_PROPERTY = "io.netty.leakDetectionLevel";

    private NettyLeakDetection() {
    }

    /** Turns leak detection off unless {@code -Dio.netty.leakDetection.level} (or its older name) sets a level. */
    public static void disableUnlessConfigured() {
        if (!configured(System::getProperty)) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    /** Whether the properties name a level, which Netty then read itself when it loaded. */
    static boolean configured(UnaryOperator<String> properties) {
        return properties.apply(LEVEL_PROPERTY) != null || properties.apply(LEGACY_LEVEL_PROPERTY) != null;
    }
}
