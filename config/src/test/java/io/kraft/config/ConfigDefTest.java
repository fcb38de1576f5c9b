package io.kraft.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConfigDefTest {

    private static ConfigDef sample() {
        return new ConfigDef()
                .define("node.id", ConfigType.INT, ConfigDef.NO_DEFAULT, Validator.atLeast(0), Importance.HIGH,
                        "The node's id.")
                .define("segment.bytes", ConfigType.INT, 1024, Validator.atLeast(14), Importance.HIGH,
                        "Segment size.")
                .define("enabled", ConfigType.BOOLEAN, true, Importance.LOW, "A switch.")
                .define("name", ConfigType.STRING, "kraft", Validator.nonEmptyString(), Importance.LOW, "A name.")
                .define("replicas", ConfigType.SHORT, (short) 3, Validator.atLeast(1), Importance.LOW, "Copies.")
                .define("retention.ms", ConfigType.LONG, null, Importance.HIGH, "Optional, no default.")
                .define("ratio", ConfigType.DOUBLE, 0.5, Validator.between(0, 1), Importance.LOW, "A ratio.")
                .define("policy", ConfigType.LIST, "delete", Validator.itemsIn("compact", "delete"),
                        Importance.MEDIUM, "Policies.")
                .define("secret", ConfigType.PASSWORD, null, Importance.HIGH, "A secret.");
    }

    private static ParsedConfig parse(ConfigDef definition, Map<String, String> values) {
        return definition.parse(values, ConfigSource.STATIC_BROKER_CONFIG);
    }

    @Test
    void unsetKeysTakeTheirDefaultsWithDefaultSource() {
        ParsedConfig config = parse(sample(), Map.of("node.id", "1"));
        assertEquals(1, config.getInt("node.id"));
        assertEquals(1024, config.getInt("segment.bytes"));
        assertEquals(true, config.getBoolean("enabled"));
        assertEquals("kraft", config.getString("name"));
        assertEquals((short) 3, config.getShort("replicas"));
        assertNull(config.getLong("retention.ms"));
        assertEquals(0.5, config.getDouble("ratio"));
        assertEquals(List.of("delete"), config.getList("policy"));
        assertNull(config.getPassword("secret"));
        assertEquals(ConfigSource.STATIC_BROKER_CONFIG, config.source("node.id"));
        assertEquals(ConfigSource.DEFAULT_CONFIG, config.source("segment.bytes"));
        assertEquals(ConfigSource.DEFAULT_CONFIG, config.source("retention.ms"));
        assertTrue(config.isSet("node.id"));
        assertFalse(config.isSet("ratio"));
    }

    @Test
    void givenValuesAreParsedToTheirTypes() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("node.id", "7");
        values.put("segment.bytes", "14");
        values.put("enabled", "FALSE");
        values.put("name", " broker-7 ");
        values.put("replicas", "2");
        values.put("retention.ms", "-1");
        values.put("ratio", "1");
        values.put("policy", "compact, delete");
        values.put("secret", "hunter2");
        ParsedConfig config = parse(sample(), values);
        assertEquals(14, config.getInt("segment.bytes"));
        assertEquals(false, config.getBoolean("enabled"));
        assertEquals("broker-7", config.getString("name"));
        assertEquals((short) 2, config.getShort("replicas"));
        assertEquals(-1L, config.getLong("retention.ms"));
        assertEquals(1.0, config.getDouble("ratio"));
        assertEquals(List.of("compact", "delete"), config.getList("policy"));
        assertEquals("hunter2", config.getPassword("secret").value());
        assertEquals(values, config.originals());
        assertEquals(Set.of(), config.unknownKeys());
    }

    @Test
    void aValueThatIsNotOfItsTypeFailsWithOneLineNamingKeyValueAndExpectation() {
        ConfigException error = assertThrows(ConfigException.class,
                () -> parse(sample(), Map.of("node.id", "1", "segment.bytes", "abc")));
        assertEquals("Invalid value abc for configuration segment.bytes: expected an int at least 14", error.getMessage());
        assertEquals("segment.bytes", error.key());
    }

    @Test
    void aValueFailingItsValidatorFailsTheSameWay() {
        ConfigException tooSmall = assertThrows(ConfigException.class,
                () -> parse(sample(), Map.of("node.id", "1", "segment.bytes", "13")));
        assertEquals("Invalid value 13 for configuration segment.bytes: expected an int at least 14",
                tooSmall.getMessage());

        ConfigException badItem = assertThrows(ConfigException.class,
                () -> parse(sample(), Map.of("node.id", "1", "policy", "delete,archive")));
        assertEquals("Invalid value delete,archive for configuration policy: "
                + "expected a comma-separated list with items in [compact, delete]", badItem.getMessage());

        ConfigException badRatio = assertThrows(ConfigException.class,
                () -> parse(sample(), Map.of("node.id", "1", "ratio", "1.5")));
        assertEquals("Invalid value 1.5 for configuration ratio: expected a double between 0 and 1",
                badRatio.getMessage());

        ConfigException badBoolean = assertThrows(ConfigException.class,
                () -> parse(sample(), Map.of("node.id", "1", "enabled", "yes")));
        assertEquals("Invalid value yes for configuration enabled: expected a boolean", badBoolean.getMessage());

        ConfigException emptyName = assertThrows(ConfigException.class,
                () -> parse(sample(), Map.of("node.id", "1", "name", " ")));
        assertEquals("Invalid value  for configuration name: expected a string that is not empty",
                emptyName.getMessage());
    }

    @Test
    void aMissingRequiredKeyNamesTheKeyAndWhatWasExpected() {
        ConfigException error = assertThrows(ConfigException.class, () -> parse(sample(), Map.of()));
        assertEquals("Missing required configuration node.id: expected an int at least 0", error.getMessage());
        assertEquals("node.id", error.key());
    }

    @Test
    void aValueWithLineBreaksStillMakesAOneLineMessage() {
        ConfigException error = assertThrows(ConfigException.class,
                () -> parse(sample(), Map.of("node.id", "1\n2")));
        assertFalse(error.getMessage().contains("\n"));
        assertEquals("Invalid value 1\\n2 for configuration node.id: expected an int at least 0", error.getMessage());
    }

    @Test
    void aPasswordValueIsHiddenInErrorsAndInToString() {
        ConfigDef definition = new ConfigDef()
                .define("secret", ConfigType.PASSWORD, ConfigDef.NO_DEFAULT, Importance.HIGH, "A secret.");
        ParsedConfig config = parse(definition, Map.of("secret", "hunter2"));
        assertEquals("ParsedConfig{secret=[hidden]}", config.toString());
        assertFalse(config.describe().toString().contains("hunter2"));
        assertEquals("[hidden]", config.describe().get(0).shownValue());

        // A password rule that fails still must not echo the text it was given.
        ConfigDef strict = new ConfigDef().define(new ConfigKey("secret", ConfigType.PASSWORD, null, true,
                new Validator() {
                    @Override
                    public boolean accepts(Object value) {
                        return ((Password) value).value().length() >= 12;
                    }

                    @Override
                    public String expectation() {
                        return "of at least 12 characters";
                    }

                    @Override
                    public boolean supports(ConfigType type) {
                        return type == ConfigType.PASSWORD;
                    }
                }, Importance.HIGH, "A long secret."));
        ConfigException error = assertThrows(ConfigException.class, () -> parse(strict, Map.of("secret", "hunter2")));
        assertEquals("Invalid value [hidden] for configuration secret: expected a password of at least 12 characters",
                error.getMessage());
    }

    @Test
    void unknownKeysAreReportedAndLoggedAtWarnButAreNotAnError() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("node.id", "1");
        values.put("no.such.setting", "x");
        values.put("another.one", "y");
        ParsedConfig[] parsed = new ParsedConfig[1];
        String log = StderrCapture.during(() -> parsed[0] = parse(sample(), values));
        assertEquals(List.of("no.such.setting", "another.one"), List.copyOf(parsed[0].unknownKeys()));
        assertEquals("x", parsed[0].originals().get("no.such.setting"));
        assertTrue(log.lines().anyMatch(line -> line.contains("WARN") && line.endsWith("Ignoring unknown configuration no.such.setting")), log);
        assertTrue(log.lines().anyMatch(line -> line.contains("WARN") && line.endsWith("Ignoring unknown configuration another.one")), log);
        assertTrue(parsed[0].toString().contains("unknownKeys=[no.such.setting, another.one]"));
    }

    @Test
    void parseOwnTakesOnlyItsKeysFromASharedFileWithoutWarning() {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("node.id", "7");
        values.put("another.components.key", "x");
        ParsedConfig[] parsed = new ParsedConfig[1];
        String log = StderrCapture.during(() -> parsed[0] = sample().parseOwn(values, ConfigSource.STATIC_BROKER_CONFIG));
        assertEquals(7, parsed[0].getInt("node.id"));
        assertEquals(Set.of(), parsed[0].unknownKeys());
        assertFalse(log.contains("another.components.key"), log);
    }

    @Test
    void laterLayersWinAndKeepTheirOwnSource() {
        ParsedConfig config = sample().parse(List.of(
                new ConfigLayer(ConfigSource.STATIC_BROKER_CONFIG, Map.of("node.id", "1", "segment.bytes", "100",
                        "ratio", "0.1")),
                new ConfigLayer(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, Map.of("segment.bytes", "200")),
                new ConfigLayer(ConfigSource.DYNAMIC_BROKER_CONFIG, Map.of("ratio", "0.2"))));
        assertEquals(200, config.getInt("segment.bytes"));
        assertEquals(ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, config.source("segment.bytes"));
        assertEquals(0.2, config.getDouble("ratio"));
        assertEquals(ConfigSource.DYNAMIC_BROKER_CONFIG, config.source("ratio"));
        assertEquals(ConfigSource.STATIC_BROKER_CONFIG, config.source("node.id"));
        assertEquals("200", config.originals().get("segment.bytes"));
    }

    @Test
    void describeListsEveryKeyWithValueAndSource() {
        List<ConfigValue> described = parse(sample(), Map.of("node.id", "4")).describe();
        assertEquals(sample().names().size(), described.size());
        ConfigValue nodeId = described.get(0);
        assertEquals(new ConfigValue("node.id", 4, ConfigSource.STATIC_BROKER_CONFIG, "node.id", "4"), nodeId);
        assertEquals("node.id=4 (STATIC_BROKER_CONFIG)", nodeId.toString());
        assertEquals("policy=delete (DEFAULT_CONFIG)", described.get(7).toString());
    }

    @Test
    void typedGettersRejectTheWrongTypeAndUndefinedKeys() {
        ParsedConfig config = parse(sample(), Map.of("node.id", "1"));
        IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class,
                () -> config.getLong("segment.bytes"));
        assertEquals("Configuration segment.bytes is of type INT, not LONG", wrongType.getMessage());
        IllegalArgumentException undefined = assertThrows(IllegalArgumentException.class,
                () -> config.getInt("nope"));
        assertEquals("Configuration nope is not defined", undefined.getMessage());
        assertThrows(IllegalArgumentException.class, () -> config.source("nope"));
    }

    @Test
    void theResultIsImmutableAndUnaffectedByLaterDefinitions() {
        ConfigDef definition = sample();
        Map<String, String> values = new LinkedHashMap<>(Map.of("node.id", "1"));
        ParsedConfig config = parse(definition, values);
        values.put("node.id", "2");
        definition.define("late", ConfigType.INT, 1, Importance.LOW, "Defined after parsing.");
        assertEquals(1, config.getInt("node.id"));
        assertFalse(config.names().contains("late"));
        assertThrows(UnsupportedOperationException.class, () -> config.originals().put("x", "y"));
        assertThrows(UnsupportedOperationException.class, () -> config.getList("policy").add("compact"));
        assertThrows(UnsupportedOperationException.class, () -> config.unknownKeys().add("x"));
    }

    @Test
    void definingRejectsDuplicatesBadDefaultsAndMismatchedValidators() {
        ConfigDef definition = new ConfigDef().define("a", ConfigType.INT, 1, Importance.LOW, "A.");
        IllegalArgumentException duplicate = assertThrows(IllegalArgumentException.class,
                () -> definition.define("a", ConfigType.INT, 1, Importance.LOW, "Again."));
        assertEquals("Configuration a is defined twice", duplicate.getMessage());

        IllegalArgumentException badDefault = assertThrows(IllegalArgumentException.class,
                () -> definition.define("b", ConfigType.INT, 5, Validator.atLeast(14), Importance.LOW, "B."));
        assertEquals("Invalid default: Invalid value 5 for configuration b: expected an int at least 14",
                badDefault.getMessage());

        assertThrows(IllegalArgumentException.class,
                () -> definition.define("c", ConfigType.INT, "many", Importance.LOW, "C."));
        assertThrows(IllegalArgumentException.class,
                () -> definition.define("d", ConfigType.STRING, null, Validator.atLeast(1), Importance.LOW, "D."));
        assertThrows(IllegalArgumentException.class,
                () -> definition.define(" e", ConfigType.STRING, null, Importance.LOW, "E."));
        assertEquals(Set.of("a"), definition.names());
    }

    @Test
    void defaultsMayBeGivenAsTextOrAsTypedValues() {
        ConfigDef definition = new ConfigDef()
                .define("as.text", ConfigType.LONG, "300000", Importance.LOW, "Text default.")
                .define("as.int", ConfigType.LONG, 300000, Importance.LOW, "Widened default.")
                .define("as.list", ConfigType.LIST, List.of("a", "b"), Importance.LOW, "List default.");
        ParsedConfig config = parse(definition, Map.of());
        assertEquals(300_000L, config.getLong("as.text"));
        assertEquals(300_000L, config.getLong("as.int"));
        assertEquals(List.of("a", "b"), config.getList("as.list"));
        assertEquals(300_000L, definition.key("as.int").defaultValue());
        assertTrue(definition.key("as.int").hasDefault());
        assertEquals("a long", definition.key("as.int").expectation());
    }

    @Test
    void aKeyParsesSingleValuesForLaterValidationOfDynamicChanges() {
        ConfigKey key = sample().key("segment.bytes");
        assertEquals(2048, key.parse("2048"));
        ConfigException error = assertThrows(ConfigException.class, () -> key.parse("1"));
        assertEquals("Invalid value 1 for configuration segment.bytes: expected an int at least 14", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> sample().key("unknown"));
    }
}
