package io.kraft.broker.protocol.messages;

import static io.kraft.broker.protocol.schema.FieldSpec.array;
import static io.kraft.broker.protocol.schema.FieldSpec.field;
import static io.kraft.broker.protocol.schema.PrimitiveType.BOOL;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT16;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT32;
import static io.kraft.broker.protocol.schema.PrimitiveType.INT64;
import static io.kraft.broker.protocol.schema.PrimitiveType.STRING;

import io.kraft.broker.protocol.schema.MessageSchema;
import io.kraft.broker.protocol.schema.StructSchema;

/** ApiVersions (key 18) request and response, v0-4; flexible from v3 (KIP-482, KIP-511, KIP-584 features). */
public final class ApiVersionsMessages {

    public static final MessageSchema REQUEST = MessageSchema.of("ApiVersionsRequest", "0-4", "3+",
            field("client_software_name", STRING).versions("3+"),
            field("client_software_version", STRING).versions("3+"));

    static final StructSchema API_VERSION = StructSchema.of("ApiVersion",
            field("api_key", INT16),
            field("min_version", INT16),
            field("max_version", INT16));

    static final StructSchema SUPPORTED_FEATURE = StructSchema.of("SupportedFeatureKey",
            field("name", STRING),
            field("min_version", INT16),
            field("max_version", INT16));

    static final StructSchema FINALIZED_FEATURE = StructSchema.of("FinalizedFeatureKey",
            field("name", STRING),
            field("max_version_level", INT16),
            field("min_version_level", INT16));

    public static final MessageSchema RESPONSE = MessageSchema.of("ApiVersionsResponse", "0-4", "3+",
            field("error_code", INT16),
            array("api_keys", API_VERSION),
            field("throttle_time_ms", INT32).versions("1+"),
            array("supported_features", SUPPORTED_FEATURE).versions("3+").tagged(0),
            field("finalized_features_epoch", INT64).versions("3+").defaultValue(-1L).tagged(1),
            array("finalized_features", FINALIZED_FEATURE).versions("3+").tagged(2),
            field("zk_migration_ready", BOOL).versions("3+").tagged(3));

    private ApiVersionsMessages() {
    }
}
