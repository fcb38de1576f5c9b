package io.kraft.config;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A topic's list of throttled replicas (KIP-73): the single item {@code *} (every replica) or items
 * {@code partition:broker}, as {@code leader.replication.throttled.replicas} and
 * {@code follower.replication.throttled.replicas} take them.
 */
record ThrottledReplicaList() implements Validator {
    static final ThrottledReplicaList INSTANCE = new ThrottledReplicaList();
    private static final Pattern ITEM = Pattern.compile("[0-9]+:[0-9]+");

    @Override
    public boolean accepts(Object value) {
        List<?> items = (List<?>) value;
        if (items.size() == 1 && "*".equals(items.get(0))) {
            return true;
        }
        return items.stream().allMatch(item -> ITEM.matcher(String.valueOf(item)).matches());
    }

    @Override
    public String expectation() {
        return "that is the single item '*' or items [partitionId]:[brokerId]";
    }

    @Override
    public boolean supports(ConfigType type) {
        return type == ConfigType.LIST;
    }
}
