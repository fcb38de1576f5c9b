package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A production node runs without Netty's leak detection unless its system properties ask for a level. */
class NettyLeakDetectionTest {
    @Test
    void onlyAConfiguredLevelKeepsDetectionOn() {
        assertFalse(NettyLeakDetection.configured(Map.<String, String>of()::get));
        assertFalse(NettyLeakDetection.configured(Map.of("io.netty.noUnsafe", "true")::get));
        assertTrue(NettyLeakDetection.configured(Map.of("io.netty.leakDetection.level", "paranoid")::get));
        assertTrue(NettyLeakDetection.configured(Map.of("io.netty.leakDetectionLevel", "advanced")::get));
    }
}
