package io.kraft.broker.group.share;

/** The delivery state of an in-flight record of a share partition (KIP-932). */
public enum RecordState {
    /** May be acquired by any member of the group. */
    AVAILABLE((byte) 0),
    /** Held by one member until it acknowledges or its acquisition lock expires. */
    ACQUIRED((byte) 1),
    /** Processed: accepted by a consumer. */
    ACKNOWLEDGED((byte) 2),
    /** Never delivered again: rejected, past the delivery count limit, or a gap in the log. */
    ARCHIVED((byte) 4);

    /** KIP-932's code for the state, the one stored in share-partition snapshots. */
    public final byte code;

    RecordState(byte code) {
        this.code = code;
    }

    /** Whether the record is finished with: the start offset may move past it. */
    public boolean terminal() {
        return this == ACKNOWLEDGED || this == ARCHIVED;
    }

    /** Whether {@code code} names a state. */
    public static boolean isCode(byte code) {
        for (RecordState s : values()) {
            if (s.code == code) {
                return true;
            }
        }
        return false;
    }

    /** The state stored under {@code code}; unknown codes are refused. */
    public static RecordState ofCode(byte code) {
        for (RecordState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown record state " + code);
    }
}
