package io.kraft.broker.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.storage.io.FaultInjection;
import io.kraft.storage.log.LogStorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The topic id file of a partition directory: durable by default, without fsyncs for a new empty log. */
@ExtendWith(FaultInjectionEnabled.class)
class PartitionMetadataFileTest {
    @TempDir
    Path dir;

    @Test
    void roundTripsTheTopicId() {
        UUID id = UUID.randomUUID();
        PartitionMetadataFile.write(dir, id);
        assertEquals(Optional.of(id), PartitionMetadataFile.read(dir));
    }

    @Test
    void aWriteThatNeedNotBeDurableDoesNotFsync() throws Exception {
        // fsyncs fail in this directory: only a write without them succeeds.
        Files.writeString(dir.resolve(FaultInjection.TRIGGER_FILE), "FSYNC");
        UUID id = UUID.randomUUID();
        assertThrows(LogStorageException.class, () -> PartitionMetadataFile.write(dir, id));
        PartitionMetadataFile.write(dir, id, false);
        assertEquals(Optional.of(id), PartitionMetadataFile.read(dir));
    }
}
