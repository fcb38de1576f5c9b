package io.kraft.broker.group.consumer;

import java.util.Collection;

/** The topics of the current metadata image, looked up by the consumer group coordinator. */
public interface TopicCatalog {
    /** The topic, or null when it does not exist. */
    TopicInfo byName(String name);

    /** Every topic (for regex subscriptions). */
    Collection<TopicInfo> all();

    /** No topics at all (tests of classic groups). */
    TopicCatalog EMPTY = new TopicCatalog() {
        @Override
        public TopicInfo byName(String name) {
            return null;
        }

        @Override
        public Collection<TopicInfo> all() {
            return java.util.List.of();
        }
    };
}
