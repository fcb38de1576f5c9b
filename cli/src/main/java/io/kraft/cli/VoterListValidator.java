package io.kraft.cli;

import io.kraft.config.ConfigType;
import io.kraft.config.Validator;
import io.kraft.raft.QuorumConfig;
import java.util.List;

/**
 * Accepts controller.quorum.voters entries of the form {@code id@host:port}, using the Raft module's own
 * parser so that what format accepts is exactly what the quorum will run with.
 */
final class VoterListValidator implements Validator {

    @Override
    public boolean accepts(Object value) {
        return ((List<?>) value).stream().allMatch(voter -> isVoter((String) voter));
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
        return QuorumConfig.parseVoters(voter).keySet().iterator().next();
    }

    private static boolean isVoter(String voter) {
        try {
            return QuorumConfig.parseVoters(voter).size() == 1;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
