package io.kraft.metadata.controller;

/** The kinds of leader election an operator may ask for (ElectLeaders, KIP-460), with Kafka's wire values. */
public enum ElectionType {
    /** Move leadership to the first replica if it is in the ISR and its broker may lead. */
    PREFERRED((byte) 0),
    /** Elect a leader for a leaderless partition, from outside the ISR if no ISR member may lead (may lose data). */
    UNCLEAN((byte) 1);

    private final byte value;

    ElectionType(byte value) {
        this.value = value;
    }

    public byte value() {
        return value;
    }

    /** The type with this wire value. */
    public static ElectionType forValue(byte value) {
        for (ElectionType type : values()) {
            if (type.value == value) {
                return type;
            }
        }
        throw new IllegalArgumentException("Unknown election type " + value);
    }
}
