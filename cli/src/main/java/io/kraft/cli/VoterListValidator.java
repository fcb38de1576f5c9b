package io.kraft.cli;

import io.kraft.config.ConfigType;
import io.kraft.config.Validator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Accepts controller.quorum.voters entries of the form {@code id@host:port}. */
final class VoterListValidator implements Validator {
    // host: a name, an IPv4 address, or an IPv6 address in brackets
    private static final Pattern VOTER = Pattern.compile("(\\d{1,9})@([^@:\\[\\]]+|\\[[0-9a-fA-F:.]+\\]):(\\d{1,5})");

    @Override
    public boolean accepts(Object value) {
        return ((List<?>) value).stream().allMatch(voter -> parse((String) voter) != null);
    }

    @Override
    public String expectation() {
        return "with items of the form id@host:port";
    }

    @Override
    public boolean supports(ConfigType type) {
        return type == ConfigType.LIST;
    }

    /** The id of an entry that {@link #accepts} passed. */
    static int voterId(String voter) {
        Matcher matcher = parse(voter);
        if (matcher == null) {
            throw new IllegalArgumentException("not a voter: " + voter);
        }
        return Integer.parseInt(matcher.group(1));
    }

    private static Matcher parse(String voter) {
        Matcher matcher = VOTER.matcher(voter);
        return matcher.matches() && Integer.parseInt(matcher.group(3)) <= 65_535 ? matcher : null;
    }
}
