package io.kraft.cli.shell;

import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.kraft.metadata.Uuids;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.Uuid;
import io.kraft.raft.LogEntry;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One line per metadata log entry for {@code --dump-log}: {@code offset=N epoch=E TYPE field=value ...}. Every field
 * of the record type is printed (absent optional ones are left out), strings quoted, ids in Kafka's text form,
 * lists as {@code [a,b]} and nested messages as {@code {field=value ...}}.
 */
public final class RecordFormatter {
    private RecordFormatter() {
    }

    /** The line for one log entry: a metadata record, or Raft's own leader-change marker. */
    public static String format(LogEntry entry) {
        String position = "offset=" + entry.offset() + " epoch=" + entry.epoch() + " ";
        if (!entry.isData()) {
            return position + "LEADER_CHANGE" + (entry.payload().length == Integer.BYTES
                    ? " leaderId=" + ByteBuffer.wrap(entry.payload()).getInt() : "");
        }
        return position + format(MetadataLoader.parse(entry));
    }

    /** {@code TYPE field=value ...}, with the record's version when it is not 1. */
    public static String format(MetadataRecord record) {
        if (record.getRecordCase() == MetadataRecord.RecordCase.RECORD_NOT_SET) {
            return "UNKNOWN version=" + record.getVersion();
        }
        FieldDescriptor payloadField = MetadataRecord.getDescriptor()
                .findFieldByNumber(record.getRecordCase().getNumber());
        Message payload = (Message) record.getField(payloadField);
        String fields = fields(payload);
        String version = record.getVersion() == 1 ? "" : " version=" + record.getVersion();
        return record.getRecordCase().name() + version + (fields.isEmpty() ? "" : " " + fields);
    }

    private static String fields(Message message) {
        return message.getDescriptorForType().getFields().stream()
                .filter(field -> field.isRepeated() || !field.hasPresence() || message.hasField(field))
                .map(field -> field.getJsonName() + "=" + value(field, message.getField(field)))
                .collect(Collectors.joining(" "));
    }

    private static String value(FieldDescriptor field, Object value) {
        if (field.isRepeated()) {
            return ((List<?>) value).stream().map(element -> single(field, element))
                    .collect(Collectors.joining(",", "[", "]"));
        }
        return single(field, value);
    }

    private static String single(FieldDescriptor field, Object value) {
        return switch (field.getJavaType()) {
            case STRING -> Json.string((String) value);
            case ENUM -> enumName((EnumValueDescriptor) value);
            case MESSAGE -> message((Message) value);
            // Bytes (a SCRAM credential's salt and keys) are secret-derived: their size, never their content.
            case BYTE_STRING -> "<" + ((com.google.protobuf.ByteString) value).size() + " bytes>";
            default -> String.valueOf(value);
        };
    }

    private static String message(Message message) {
        if (message instanceof Uuid uuid) {
            return KafkaIds.text(Uuids.fromProto(uuid));
        }
        if (message instanceof BrokerIdList ids) {
            return ids.getBrokerIdsList().stream().map(String::valueOf).collect(Collectors.joining(",", "[", "]"));
        }
        return "{" + fields(message) + "}";
    }

    /** Enum constants without the type's prefix: CONFIG_RESOURCE_TYPE_TOPIC prints as TOPIC. */
    private static String enumName(EnumValueDescriptor value) {
        String prefix = value.getType().getName().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT)
                + "_";
        String name = value.getName();
        return name.startsWith(prefix) ? name.substring(prefix.length()) : name;
    }
}
