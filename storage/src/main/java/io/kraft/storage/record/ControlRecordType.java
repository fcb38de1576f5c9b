package io.kraft.storage.record;

import java.nio.ByteBuffer;

/**
 * The kinds of control record a partition log holds (KIP-98 transaction markers), identified by the
 * control key: version int16 (0) followed by type int16.
 */
public enum ControlRecordType {
    ABORT((short) 0),
    COMMIT((short) 1);

    /** The key version this code writes; readers accept later versions, which may append fields. */
    public static final short CURRENT_KEY_VERSION = 0;
    /** Size of a version 0 key. */
    public static final int KEY_SIZE = 4;

    private final short id;

    ControlRecordType(short id) {
        this.id = id;
    }

    public short id() {
        return id;
    }

    /** A fresh version 0 key for this type. */
    public ByteBuffer key() {
        ByteBuffer key = ByteBuffer.allocate(KEY_SIZE);
        key.putShort(CURRENT_KEY_VERSION).putShort(id).flip();
        return key;
    }

    /**
     * Reads a control record key (its remaining bytes).
     *
     * @throws CorruptRecordException when the key is not a control key of a known type
     */
    public static ControlRecordType fromKey(ByteBuffer key) {
        if (key == null) {
            throw new CorruptRecordException("control record has no key");
        }
        return parseKey(key, key.position(), key.remaining());
    }

    static ControlRecordType parseKey(ByteBuffer buffer, int position, int length) {
        if (length < KEY_SIZE) {
            throw new CorruptRecordException("control record key has " + length + " bytes, needs at least " + KEY_SIZE);
        }
        short version = buffer.getShort(position);
        if (version < 0) {
            throw new CorruptRecordException("control record key version " + version + " is negative");
        }
        short type = buffer.getShort(position + 2);
        return switch (type) {
            case 0 -> ABORT;
            case 1 -> COMMIT;
            default -> throw new CorruptRecordException("control record type " + type + " is unknown");
        };
    }
}
