package io.kraft.metadata.store;

import io.kraft.metadata.image.ConfigResource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Key and value encodings of the state store. Integers are big-endian so that keys sort numerically
 * (partition ids are never negative); a partition key starts with its topic id so that a topic's
 * partitions are one contiguous range.
 */
final class StoreKeys {
    static final byte[] APPLIED_POSITION = "applied-position".getBytes(StandardCharsets.UTF_8);
    static final byte[] NEXT_PRODUCER_ID = "next-producer-id".getBytes(StandardCharsets.UTF_8);

    private StoreKeys() {
    }

    static byte[] broker(int brokerId) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(brokerId).array();
    }

    static byte[] topic(UUID topicId) {
        return ByteBuffer.allocate(16).putLong(topicId.getMostSignificantBits())
                .putLong(topicId.getLeastSignificantBits()).array();
    }

    static byte[] partition(UUID topicId, int partitionId) {
        return ByteBuffer.allocate(20).putLong(topicId.getMostSignificantBits())
                .putLong(topicId.getLeastSignificantBits()).putInt(partitionId).array();
    }

    /** The first key after every partition of the topic (partition ids are at most Integer.MAX_VALUE). */
    static byte[] partitionsEnd(UUID topicId) {
        return ByteBuffer.allocate(20).putLong(topicId.getMostSignificantBits())
                .putLong(topicId.getLeastSignificantBits()).putInt(Integer.MIN_VALUE).array();
    }

    /** Resource type code, name length, name, then the config key. */
    static byte[] config(ConfigResource resource, String key) {
        byte[] name = resource.name().getBytes(StandardCharsets.UTF_8);
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + Integer.BYTES + name.length + keyBytes.length)
                .put(resource.type().code()).putInt(name.length).put(name).put(keyBytes).array();
    }

    record ConfigKey(ConfigResource resource, String key) {
    }

    static ConfigKey parseConfig(byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        byte code = buffer.get();
        ConfigResource.Type type = null;
        for (ConfigResource.Type candidate : ConfigResource.Type.values()) {
            if (candidate.code() == code) {
                type = candidate;
            }
        }
        if (type == null) {
            throw new MetadataStoreException("Unknown config resource type code " + code + " in the state store");
        }
        byte[] name = new byte[buffer.getInt()];
        buffer.get(name);
        byte[] key = new byte[buffer.remaining()];
        buffer.get(key);
        return new ConfigKey(new ConfigResource(type, new String(name, StandardCharsets.UTF_8)),
                new String(key, StandardCharsets.UTF_8));
    }

    /** A SCRAM credential's key: its mechanism byte, then the user name in UTF-8. */
    static byte[] scram(byte mechanism, String user) {
        byte[] name = user.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[name.length + 1];
        key[0] = mechanism;
        System.arraycopy(name, 0, key, 1, name.length);
        return key;
    }

    static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    static String string(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    static byte[] int32(int value) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(value).array();
    }

    static int int32(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getInt();
    }

    static byte[] int64(long value) {
        return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
    }

    static long int64(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getLong();
    }

    static byte[] position(long offset, int epoch) {
        return ByteBuffer.allocate(Long.BYTES + Integer.BYTES).putLong(offset).putInt(epoch).array();
    }
}
