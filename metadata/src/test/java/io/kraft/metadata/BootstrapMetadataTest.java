package io.kraft.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.image.ScramFunctions;
import io.kraft.metadata.image.ScramMechanism;
import io.kraft.proto.metadata.MetadataRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootstrapMetadataTest {
    @TempDir
    Path dir;

    @Test
    void readsBackWhatItWroteAndNothingWithoutAFile() throws Exception {
        assertEquals(List.of(), BootstrapMetadata.read(dir));
        List<MetadataRecord> records = List.of(
                ScramFunctions.credentialForPassword("admin", ScramMechanism.SCRAM_SHA_256, "pw", 4096).toRecord(),
                ScramFunctions.credentialForPassword("admin", ScramMechanism.SCRAM_SHA_512, "pw", 8192).toRecord());
        BootstrapMetadata.write(dir, records);
        assertEquals(records, BootstrapMetadata.read(dir));
    }

    @Test
    void aDamagedFileIsRefusedWithItsName() throws Exception {
        BootstrapMetadata.write(dir, List.of(
                ScramFunctions.credentialForPassword("admin", ScramMechanism.SCRAM_SHA_256, "pw", 4096).toRecord()));
        Path file = BootstrapMetadata.file(dir);
        byte[] bytes = Files.readAllBytes(file);
        bytes[10] ^= 1;
        Files.write(file, bytes);
        InvalidMetadataRecordException flipped = assertThrows(InvalidMetadataRecordException.class,
                () -> BootstrapMetadata.read(dir));
        assertTrue(flipped.getMessage().contains(file + " is damaged"), flipped.getMessage());
        Files.write(file, new byte[] {0, 0});
        assertThrows(InvalidMetadataRecordException.class, () -> BootstrapMetadata.read(dir));
    }
}
