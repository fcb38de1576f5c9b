package io.kraft.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.storage.MetaProperties.ClusterIdMismatchException;
import io.kraft.storage.MetaProperties.CorruptMetaPropertiesException;
import io.kraft.storage.MetaProperties.DuplicateDirectoryIdException;
import io.kraft.storage.MetaProperties.NodeIdMismatchException;
import io.kraft.storage.MetaProperties.UnformattedLogDirException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetaPropertiesTest {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
    private static final Path CONFIG = Path.of("config/server.properties");

    @TempDir
    Path root;

    @Test
    void randomUuidsAreKafkaStyleAndNeverStartWithADash() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            String id = MetaProperties.randomUuid();
            assertEquals(22, id.length(), id);
            assertEquals(16, Base64.getUrlDecoder().decode(id).length, id);
            assertNotEquals('-', id.charAt(0), id);
            assertTrue(MetaProperties.isValidUuid(id), id);
            assertTrue(seen.add(id), "duplicate " + id);
        }
    }

    @Test
    void uuidValidationRejectsWrongLengthAlphabetPaddingAndAliases() {
        assertTrue(MetaProperties.isValidUuid(CLUSTER_ID));
        assertFalse(MetaProperties.isValidUuid(null));
        assertFalse(MetaProperties.isValidUuid(""));
        assertFalse(MetaProperties.isValidUuid(CLUSTER_ID.substring(1)));
        assertFalse(MetaProperties.isValidUuid(CLUSTER_ID + "=="), "padding");
        assertFalse(MetaProperties.isValidUuid("MkU3OEVBNTcwNTJENDM2Q+"), "standard, not URL-safe, alphabet");
        // The last character carries 4 unused bits; 'h' decodes like 'g' but is not the canonical text.
        assertFalse(MetaProperties.isValidUuid("MkU3OEVBNTcwNTJENDM2Qh"));
    }

    @Test
    void writesTheKafkaKeysAndReadsThemBack() throws Exception {
        Path dir = root.resolve("a/b");
        MetaProperties meta = MetaProperties.forNewDirectory(CLUSTER_ID, 3);
        meta.write(dir);
        String text = Files.readString(dir.resolve("meta.properties"));
        assertTrue(text.contains("version=1\n"), text);
        assertTrue(text.contains("cluster.id=" + CLUSTER_ID + "\n"), text);
        assertTrue(text.contains("node.id=3\n"), text);
        assertTrue(text.contains("directory.id=" + meta.directoryId() + "\n"), text);
        assertFalse(Files.exists(dir.resolve("meta.properties.tmp")), "temp file renamed away");
        assertEquals(Optional.of(meta), MetaProperties.read(dir));
        assertEquals(Optional.empty(), MetaProperties.read(root.resolve("missing")));
        assertEquals(Optional.empty(), MetaProperties.read(root));
    }

    @Test
    void eachNewDirectoryGetsItsOwnId() {
        assertNotEquals(MetaProperties.forNewDirectory(CLUSTER_ID, 1).directoryId(),
                MetaProperties.forNewDirectory(CLUSTER_ID, 1).directoryId());
    }

    @Test
    void rewritingReplacesTheWholeFile() {
        MetaProperties first = MetaProperties.forNewDirectory(CLUSTER_ID, 1);
        first.write(root);
        MetaProperties second = MetaProperties.forNewDirectory(MetaProperties.randomUuid(), 2);
        second.write(root);
        assertEquals(Optional.of(second), MetaProperties.read(root));
    }

    @Test
    void corruptFilesFailWithOneLineNamingTheFile() throws Exception {
        List<String> corrupt = List.of(
                "",
                "version=1\ncluster.id=" + CLUSTER_ID + "\nnode.id=1\n",
                "version=0\ncluster.id=" + CLUSTER_ID + "\nnode.id=1\ndirectory.id=" + CLUSTER_ID + "\n",
                "version=1\ncluster.id=short\nnode.id=1\ndirectory.id=" + CLUSTER_ID + "\n",
                "version=1\ncluster.id=" + CLUSTER_ID + "\nnode.id=x\ndirectory.id=" + CLUSTER_ID + "\n",
                "version=1\ncluster.id=" + CLUSTER_ID + "\nnode.id=-4\ndirectory.id=" + CLUSTER_ID + "\n",
                "version=1\ncluster.id=\\u00zz\n");
        for (String text : corrupt) {
            Files.writeString(root.resolve("meta.properties"), text);
            CorruptMetaPropertiesException e = assertThrows(CorruptMetaPropertiesException.class,
                    () -> MetaProperties.read(root), text);
            assertTrue(e.getMessage().startsWith(root.resolve("meta.properties").toString()), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }
        Files.delete(root.resolve("meta.properties"));
        Files.createDirectory(root.resolve("meta.properties"));
        assertThrows(CorruptMetaPropertiesException.class, () -> MetaProperties.read(root), "a directory, not a file");
    }

    @Test
    void verifyReturnsEveryDirectorysIdentity() {
        Path a = root.resolve("a");
        Path b = root.resolve("b");
        MetaProperties metaA = MetaProperties.forNewDirectory(CLUSTER_ID, 5);
        MetaProperties metaB = MetaProperties.forNewDirectory(CLUSTER_ID, 5);
        metaA.write(a);
        metaB.write(b);
        assertEquals(Map.of(a, metaA, b, metaB), MetaProperties.verify(List.of(a, b), 5, CONFIG));
    }

    @Test
    void verifyRefusesAnUnformattedDirectoryAndSaysWhatToRun() {
        Path a = root.resolve("a");
        UnformattedLogDirException none = assertThrows(UnformattedLogDirException.class,
                () -> MetaProperties.verify(List.of(a), 1, CONFIG));
        assertEquals("log directory " + a + " is not formatted: run 'kraft-cli format --config " + CONFIG
                + " --cluster-id $(kraft-cli random-uuid)'", none.getMessage());

        MetaProperties.forNewDirectory(CLUSTER_ID, 1).write(a);
        Path b = root.resolve("b");
        UnformattedLogDirException oneMissing = assertThrows(UnformattedLogDirException.class,
                () -> MetaProperties.verify(List.of(b, a), 1, CONFIG));
        assertEquals("log directory " + b + " is not formatted: run 'kraft-cli format --config " + CONFIG
                + " --cluster-id " + CLUSTER_ID + " --ignore-formatted'", oneMissing.getMessage());
    }

    @Test
    void verifyRefusesAnotherNodesDirectory() {
        MetaProperties.forNewDirectory(CLUSTER_ID, 2).write(root);
        NodeIdMismatchException e = assertThrows(NodeIdMismatchException.class,
                () -> MetaProperties.verify(List.of(root), 1, CONFIG));
        assertTrue(e.getMessage().contains("belongs to node.id 2 but " + CONFIG + " has node.id 1"), e.getMessage());
    }

    @Test
    void verifyRefusesDirectoriesOfDifferentClusters() {
        Path a = root.resolve("a");
        Path b = root.resolve("b");
        String otherCluster = MetaProperties.randomUuid();
        MetaProperties.forNewDirectory(CLUSTER_ID, 1).write(a);
        MetaProperties.forNewDirectory(otherCluster, 1).write(b);
        ClusterIdMismatchException e = assertThrows(ClusterIdMismatchException.class,
                () -> MetaProperties.verify(List.of(a, b), 1, CONFIG));
        assertTrue(e.getMessage().startsWith("log directory " + b + " has cluster.id " + otherCluster + " but " + a
                + " has cluster.id " + CLUSTER_ID), e.getMessage());
    }

    @Test
    void verifyRefusesACopiedDirectory() throws Exception {
        Path a = root.resolve("a");
        Path b = root.resolve("b");
        MetaProperties.forNewDirectory(CLUSTER_ID, 1).write(a);
        Files.createDirectories(b);
        Files.copy(a.resolve("meta.properties"), b.resolve("meta.properties"));
        DuplicateDirectoryIdException e = assertThrows(DuplicateDirectoryIdException.class,
                () -> MetaProperties.verify(List.of(a, b), 1, CONFIG));
        assertTrue(e.getMessage().startsWith("log directories " + a + " and " + b + " have the same directory.id"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("--cluster-id " + CLUSTER_ID + " --ignore-formatted'"), e.getMessage());
    }

    @Test
    void writeFailsNamingTheFileWhenTheDirectoryCannotBeCreated() throws Exception {
        Path notADir = Files.writeString(root.resolve("plain-file"), "x");
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> MetaProperties.forNewDirectory(CLUSTER_ID, 1).write(notADir.resolve("sub")));
        assertTrue(e.getMessage().startsWith("cannot write " + notADir.resolve("sub").resolve("meta.properties")),
                e.getMessage());
    }

    @Test
    void verifyReportsACorruptFile() throws Exception {
        Files.writeString(root.resolve("meta.properties"), "garbage");
        assertThrows(CorruptMetaPropertiesException.class, () -> MetaProperties.verify(List.of(root), 1, CONFIG));
    }

    @Test
    void theDirectoryIdReadsAsTheUuidItEncodes() {
        MetaProperties identity = MetaProperties.forNewDirectory(MetaProperties.randomUuid(), 1);
        assertEquals(identity.directoryId(), MetaProperties.toKafkaUuid(identity.directoryUuid()));
        assertEquals("AAAAAAAAAAEAAAAAAAAAAg", MetaProperties.toKafkaUuid(new java.util.UUID(1, 2)));
    }
}
