package io.kraft.broker.protocol;

import java.util.Random;

/**
 * The one seed of the protocol tests: {@code -Dkraft.seed=N} replays a run; without it every run draws a new
 * one. Each test derives its own stream from the seed and a stable name (never an identity hash code), so a
 * failing case replays alone with the seed its failure message prints.
 */
final class TestSeed {
    static final long SEED = Long.getLong("kraft.seed", System.nanoTime());

    private TestSeed() {
    }

    /** A random stream for {@code purpose} (a test name plus its case), the same in every run with this seed. */
    static Random random(String purpose) {
        return new Random(SEED ^ (0x9E3779B97F4A7C15L * purpose.hashCode()));
    }

    /** Appended to every failure message. */
    static String replay() {
        return " [replay: -Dkraft.seed=" + SEED + "]";
    }
}
