package io.kraft.raft.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BootstrapVotersFileTest {
    @TempDir
    Path dir;

    @Test
    void roundTripsAndAbsentMeansStatic() throws Exception {
        assertEquals(Optional.empty(), BootstrapVotersFile.read(dir));
        VoterSet voters = VoterSet.of(List.of(new Voter(1, new UUID(1, 2), "ctl1:9093"),
                new Voter(2, new UUID(3, 4), "[::1]:9093")));
        BootstrapVotersFile.write(dir, voters);
        assertEquals(Optional.of(voters), BootstrapVotersFile.read(dir));
        BootstrapVotersFile.write(dir, VoterSet.empty());
        assertTrue(BootstrapVotersFile.read(dir).orElseThrow().isEmpty(), "a controller to be added later");
    }

    @Test
    void aDamagedFileIsRefusedWithItsName() throws Exception {
        BootstrapVotersFile.write(dir, VoterSet.of(List.of(new Voter(1, new UUID(1, 2), "ctl1:9093"))));
        byte[] bytes = Files.readAllBytes(BootstrapVotersFile.path(dir));
        bytes[bytes.length - 1] ^= 1;
        Files.write(BootstrapVotersFile.path(dir), bytes);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> BootstrapVotersFile.read(dir));
        assertTrue(e.getMessage().contains(BootstrapVotersFile.FILE_NAME), e.getMessage());
    }
}
