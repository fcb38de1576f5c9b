package io.kraft.metadata.image;

import io.kraft.proto.metadata.ConfigResourceType;
import java.util.Objects;

/** A topic or broker whose configuration is kept in the metadata log. A broker name "" is the cluster default. */
public record ConfigResource(Type type, String name) {
    /** Resource types with Kafka's ConfigResource codes. */
    public enum Type {
        TOPIC((byte) 2, ConfigResourceType.CONFIG_RESOURCE_TYPE_TOPIC),
        BROKER((byte) 4, ConfigResourceType.CONFIG_RESOURCE_TYPE_BROKER);

        private final byte code;
        private final ConfigResourceType proto;

        Type(byte code, ConfigResourceType proto) {
            this.code = code;
            this.proto = proto;
        }

        /** Kafka's numeric code for this type (DescribeConfigs, AlterConfigs). */
        public byte code() {
            return code;
        }

        public ConfigResourceType toProto() {
            return proto;
        }

        /** @throws IllegalArgumentException for a type this code does not know */
        public static Type fromProto(ConfigResourceType type) {
            for (Type candidate : values()) {
                if (candidate.proto == type) {
                    return candidate;
                }
            }
            throw new IllegalArgumentException("Unknown config resource type " + type);
        }
    }

    public ConfigResource {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
    }

    public static ConfigResource topic(String name) {
        return new ConfigResource(Type.TOPIC, name);
    }

    public static ConfigResource broker(String name) {
        return new ConfigResource(Type.BROKER, name);
    }
}
