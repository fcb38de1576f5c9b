package io.kraft.broker.group.consumer;

import java.util.Locale;

/**
 * Whether a group with members may change protocol (KIP-848's {@code group.consumer.migration.policy}): upgrade is a
 * classic group taken over by its first consumer-protocol member, downgrade the way back once its last one leaves.
 */
public enum MigrationPolicy {
    DISABLED, UPGRADE, DOWNGRADE, BIDIRECTIONAL;

    public boolean allowsUpgrade() {
        return this == UPGRADE || this == BIDIRECTIONAL;
    }

    public boolean allowsDowngrade() {
        return this == DOWNGRADE || this == BIDIRECTIONAL;
    }

    /** Kafka's spelling, case-insensitive. */
    public static MigrationPolicy parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(ConsumerGroupConfig.MIGRATION_POLICY + " must be one of disabled, "
                    + "upgrade, downgrade, bidirectional; got '" + text + "'");
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
