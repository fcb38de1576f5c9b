package io.kraft.broker.group.share;

/** What a share consumer says about a record it was given (KIP-932's acknowledge types, with their wire codes). */
public enum AcknowledgeType {
    /** An offset with no record (compacted away, a transaction marker): archived. */
    GAP((byte) 0),
    /** Processed successfully. */
    ACCEPT((byte) 1),
    /** Give it back for another delivery attempt. */
    RELEASE((byte) 2),
    /** Unprocessable: never deliver again. */
    REJECT((byte) 3);

    /** The wire code. */
    public final byte code;

    AcknowledgeType(byte code) {
        this.code = code;
    }

    /** The type of a wire code, or null when the code is not one. */
    public static AcknowledgeType ofCode(byte code) {
        for (AcknowledgeType t : values()) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }
}
