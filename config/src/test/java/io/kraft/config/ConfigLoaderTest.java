package io.kraft.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void readsAFileWithPropertiesSyntaxAsUtf8() throws IOException {
        Path file = write("""
                # a comment
                ! another comment
                log.dir = /data/kr\u00e4ft-\u65e5\u672c
                log.segment.bytes:1048576
                log.cleanup.policy=compact,\\
                    delete
                log.roll.hours 24
                """);
        ParsedConfig config = ConfigLoader.load(LogConfigs.definition(), file, List.of());
        assertEquals("/data/kr\u00e4ft-\u65e5\u672c", config.getString(LogConfigs.LOG_DIR));
        assertEquals(1_048_576, config.getInt(LogConfigs.LOG_SEGMENT_BYTES));
        assertEquals(List.of("compact", "delete"), config.getList(LogConfigs.LOG_CLEANUP_POLICY));
        assertEquals(24, config.getInt(LogConfigs.LOG_ROLL_HOURS));
        assertEquals(ConfigSource.STATIC_BROKER_CONFIG, config.source(LogConfigs.LOG_DIR));
        assertEquals(ConfigSource.DEFAULT_CONFIG, config.source(LogConfigs.MESSAGE_MAX_BYTES));
    }

    @Test
    void overridesWinOverTheFileAndLaterOverridesWinOverEarlierOnes() throws IOException {
        Path file = write("log.segment.bytes=1048576\nlog.retention.hours=1\n");
        ParsedConfig config = ConfigLoader.load(LogConfigs.definition(), file,
                List.of("log.segment.bytes=2048", "compression.type=zstd", "compression.type=lz4"));
        assertEquals(2048, config.getInt(LogConfigs.LOG_SEGMENT_BYTES));
        assertEquals(1, config.getInt(LogConfigs.LOG_RETENTION_HOURS));
        assertEquals("lz4", config.getString(LogConfigs.COMPRESSION_TYPE));
        assertEquals("2048", config.originals().get(LogConfigs.LOG_SEGMENT_BYTES));
    }

    @Test
    void overridesAloneNeedNoFile() {
        ParsedConfig config = ConfigLoader.load(LogConfigs.definition(), null, List.of("log.dirs=/a,/b"));
        assertEquals(List.of("/a", "/b"), config.getList(LogConfigs.LOG_DIRS));
    }

    @Test
    void anOverrideSplitsAtItsFirstEqualsSign() {
        assertEquals(Map.of("sasl.jaas.config", "a=b c=d", "empty", ""),
                ConfigLoader.parseOverrides(List.of(" sasl.jaas.config=a=b c=d", "empty=")));
    }

    @Test
    void aMalformedOverrideIsAConfigException() {
        ConfigException noEquals = assertThrows(ConfigException.class,
                () -> ConfigLoader.parseOverrides(List.of("log.segment.bytes")));
        assertEquals("Invalid override log.segment.bytes: expected key=value", noEquals.getMessage());
        ConfigException noKey = assertThrows(ConfigException.class,
                () -> ConfigLoader.parseOverrides(List.of(" =5")));
        assertEquals("Invalid override  =5: expected key=value", noKey.getMessage());
    }

    @Test
    void anInvalidValueInAFileNamesKeyValueAndExpectation() throws IOException {
        Path file = write("log.segment.bytes=abc\n");
        ConfigException error = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(LogConfigs.definition(), file, List.of()));
        assertEquals("Invalid value abc for configuration log.segment.bytes: expected an int at least 14",
                error.getMessage());
    }

    @Test
    void unknownKeysInTheFileAreWarnedAboutAndReported() throws IOException {
        Path file = write("log.segment.bytes=2048\nlog.segmnet.bytes=4096\n");
        ParsedConfig[] parsed = new ParsedConfig[1];
        String log = StderrCapture.during(
                () -> parsed[0] = ConfigLoader.load(LogConfigs.definition(), file, List.of("zookeeper.connect=x")));
        assertEquals(List.of("log.segmnet.bytes", "zookeeper.connect"), List.copyOf(parsed[0].unknownKeys()));
        assertTrue(log.contains("WARN"), log);
        assertTrue(log.contains("Ignoring unknown configuration log.segmnet.bytes"), log);
        assertTrue(log.contains("Ignoring unknown configuration zookeeper.connect"), log);
    }

    @Test
    void aMissingFileIsAConfigExceptionNamingTheFile() {
        Path missing = dir.resolve("absent.properties");
        ConfigException error = assertThrows(ConfigException.class,
                () -> ConfigLoader.load(LogConfigs.definition(), missing, List.of()));
        assertTrue(error.getMessage().startsWith("Cannot read configuration file " + missing + ": "), error.getMessage());
    }

    @Test
    void aFileThatIsNotUtf8IsAConfigException() throws IOException {
        Path file = dir.resolve("latin1.properties");
        Files.write(file, "log.dir=/data/kr\u00e4ft\n".getBytes(StandardCharsets.ISO_8859_1));
        ConfigException error = assertThrows(ConfigException.class, () -> ConfigLoader.readProperties(file));
        assertTrue(error.getMessage().startsWith("Cannot read configuration file " + file), error.getMessage());
    }
}
