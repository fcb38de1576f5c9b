package io.kraft.broker.security;

import io.kraft.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One login module entry in the form Kafka's {@code sasl.jaas.config} takes:
 * {@code <LoginModuleClass> <required|requisite|sufficient|optional> key="value" key2=value2;}. Only what a SASL
 * listener needs is read: the module's class name and its options (PLAIN's {@code user_<name>} passwords, a broker's
 * own {@code username} and {@code password}).
 */
public record JaasConfig(String loginModule, Map<String, String> options) {
    public static final String PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
    public static final String SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

    public JaasConfig {
        options = Map.copyOf(options);
    }

    /**
     * Parses one entry.
     *
     * @param key the property it came from, for the error message
     * @throws ConfigException naming the key and the problem (never the value: it holds passwords)
     */
    public static JaasConfig parse(String key, String text) {
        Tokens tokens = new Tokens(key, text.trim());
        String module = tokens.word();
        String flag = tokens.word();
        if (!flag.matches("required|requisite|sufficient|optional")) {
            throw new ConfigException(key + ": the login module's flag must be required, requisite, sufficient or"
                    + " optional");
        }
        Map<String, String> options = new LinkedHashMap<>();
        while (!tokens.atEnd()) {
            String name = tokens.word();
            tokens.expect('=');
            String value = tokens.value();
            options.put(name, value);
        }
        return new JaasConfig(module, options);
    }

    /** The module and its option names; never their values (passwords). */
    @Override
    public String toString() {
        return loginModule + " " + options.keySet();
    }

    /** The value of {@code name}, or null. */
    public String option(String name) {
        return options.get(name);
    }

    /** A cursor over the entry; ';' ends it. */
    private static final class Tokens {
        private final String key;
        private final String text;
        private int at;

        Tokens(String key, String text) {
            this.key = key;
            this.text = text;
        }

        boolean atEnd() {
            skipSpaces();
            if (at < text.length() && text.charAt(at) == ';') {
                at++;
                skipSpaces();
                if (at != text.length()) {
                    throw new ConfigException(key + ": one login module entry is expected; text follows the ';'");
                }
                return true;
            }
            if (at >= text.length()) {
                throw new ConfigException(key + ": the login module entry must end with ';'");
            }
            return false;
        }

        String word() {
            skipSpaces();
            int start = at;
            while (at < text.length() && !Character.isWhitespace(text.charAt(at)) && "=;\"".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            if (start == at) {
                throw new ConfigException(key + ": expected a login module class, flag or option name at position "
                        + start);
            }
            return text.substring(start, at);
        }

        void expect(char c) {
            skipSpaces();
            if (at >= text.length() || text.charAt(at) != c) {
                throw new ConfigException(key + ": expected '" + c + "' at position " + at);
            }
            at++;
        }

        String value() {
            skipSpaces();
            if (at < text.length() && text.charAt(at) == '"') {
                StringBuilder value = new StringBuilder();
                at++;
                while (at < text.length() && text.charAt(at) != '"') {
                    char c = text.charAt(at++);
                    if (c == '\\' && at < text.length()) {
                        c = text.charAt(at++);
                    }
                    value.append(c);
                }
                if (at >= text.length()) {
                    throw new ConfigException(key + ": an option's quoted value is not closed");
                }
                at++;
                return value.toString();
            }
            return word();
        }

        private void skipSpaces() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }
    }
}
