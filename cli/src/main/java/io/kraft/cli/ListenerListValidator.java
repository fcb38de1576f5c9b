package io.kraft.cli;

import io.kraft.config.ConfigType;
import io.kraft.config.Validator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Accepts listeners entries of the form {@code NAME://host:port}; an empty host means every interface. */
final class ListenerListValidator implements Validator {
    private static final Pattern LISTENER =
            Pattern.compile("([A-Za-z][A-Za-z0-9_-]*)://([^:/\\[\\]]*|\\[[0-9a-fA-F:.]+\\]):(\\d{1,5})");

    @Override
    public boolean accepts(Object value) {
        return ((List<?>) value).stream().allMatch(listener -> parse((String) listener) != null);
    }

    @Override
    public String expectation() {
        return "with items of the form NAME://host:port";
    }

    @Override
    public boolean supports(ConfigType type) {
        return type == ConfigType.LIST;
    }

    /** The name of an entry that {@link #accepts} passed. */
    static String listenerName(String listener) {
        Matcher matcher = parse(listener);
        if (matcher == null) {
            throw new IllegalArgumentException("not a listener: " + listener);
        }
        return matcher.group(1);
    }

    private static Matcher parse(String listener) {
        Matcher matcher = LISTENER.matcher(listener);
        return matcher.matches() && Integer.parseInt(matcher.group(3)) <= 65_535 ? matcher : null;
    }
}
