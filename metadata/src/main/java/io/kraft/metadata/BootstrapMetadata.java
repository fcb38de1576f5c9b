package io.kraft.metadata;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.io.DurableFiles;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The records {@code kraft-cli format} leaves for a new cluster ({@code --add-scram}'s credentials), in
 * {@code bootstrap.checkpoint} of the metadata log directory as Kafka keeps them: the first active controller of an
 * empty log appends them before anything else. Layout: a record count (int32), each record as its length (int32) and
 * its protobuf bytes, then a CRC-32C (int32) of everything before it; written atomically.
 */
public final class BootstrapMetadata {
    public static final String FILE_NAME = "bootstrap.checkpoint";
    /** Far beyond what format writes; a larger count is a damaged file. */
    private static final int MAX_RECORDS = 100_000;

    private BootstrapMetadata() {
    }

    /** The file in a metadata log directory. */
    public static Path file(Path metadataLogDir) {
        return metadataLogDir.resolve(FILE_NAME);
    }

    /** Writes {@code records} (replacing any earlier file). */
    public static void write(Path metadataLogDir, List<MetadataRecord> records) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(records.size());
            for (MetadataRecord record : records) {
                byte[] encoded = record.toByteArray();
                out.writeInt(encoded.length);
                out.write(encoded);
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray());
            out.writeInt((int) crc.getValue());
        }
        Files.createDirectories(metadataLogDir);
        DurableFiles.writeAtomically(file(metadataLogDir), bytes.toByteArray());
    }

    /**
     * The records of the directory's bootstrap file; none when there is no file.
     *
     * @throws InvalidMetadataRecordException if the file is damaged or holds a record this node cannot read
     */
    public static List<MetadataRecord> read(Path metadataLogDir) {
        Path file = file(metadataLogDir);
        if (!Files.exists(file)) {
            return List.of();
        }
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
        try {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            CRC32C crc = new CRC32C();
            crc.update(content, 0, Math.max(0, content.length - Integer.BYTES));
            if (content.length < 2 * Integer.BYTES || buffer.getInt(content.length - Integer.BYTES) != (int) crc.getValue()) {
                throw new InvalidMetadataRecordException(file + " is damaged: its checksum does not match");
            }
            int count = buffer.getInt();
            if (count < 0 || count > MAX_RECORDS) {
                throw new InvalidMetadataRecordException(file + " is damaged: it claims " + count + " records");
            }
            List<MetadataRecord> records = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                byte[] encoded = new byte[buffer.getInt()];
                buffer.get(encoded);
                MetadataRecord record = MetadataRecord.parseFrom(encoded);
                MetadataRecords.checkReadable(record);
                records.add(record);
            }
            return records;
        } catch (BufferUnderflowException | NegativeArraySizeException | InvalidProtocolBufferException e) {
            throw new InvalidMetadataRecordException(file + " is damaged: " + e.getMessage());
        }
    }
}
